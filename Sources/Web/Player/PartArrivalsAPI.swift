import Foundation
import Host

/// How far an audiobook's parts have arrived, for the player of a book listened to as it downloads (a loan opened
/// from Listen on its page): `GET /api/player/arrivals?book=ID` answers each track's state and the chapters'
/// (as `GET /api/player` does) and `arriving`, the host's words for the parts still on their way (null once every
/// part is here). The player asks about once a second while `arriving` is not null. A loan's download that
/// stopped names the loan (`resume`: the title's id and account), which `POST /api/book/download` resumes.
enum PartArrivalsAPI {
    static func install(in app: WebApp, sessions: ListeningSessions, audioPrefix: String) {
        app.router.add("GET", "/api/player/arrivals") { request in
            guard let id = request.query["book"], !id.isEmpty else {
                throw WebError(400, "Which audiobook? Add ?book=ID.")
            }
            let session = try sessions.session(id: id).session
            return try .json(object: [
                "book": id, "tracks": PlayerAPI.tracks(session, id: id, audioPrefix: audioPrefix),
                "chapters": PlayerAPI.chapters(session),
                "arriving": arriving(session, book: try ShelfRecord.find(id, in: app).book)
            ])
        }
    }

    /// The parts still arriving in the host's words (`PartsArriving`), or null when every part is here.
    static func arriving(_ session: ListeningSession, book: ShelfBook) -> Any {
        guard let parts = session.partsArriving else { return NSNull() }
        let words = parts.words(for: .browser)
        let resume: Any =
            parts.stopped && book.loanEntryID != nil
            ? ["id": book.loanEntryID ?? "", "account": book.loanAccountID ?? ""] : NSNull()
        return [
            "resume": resume,
            "here": parts.here, "count": parts.count, "bytes": parts.bytes,
            "total": parts.total.map { $0 as Any } ?? NSNull(),
            "waiting": parts.waiting, "stopped": parts.stopped, "message": words.line, "label": parts.label
        ] as [String: Any]
    }
}
