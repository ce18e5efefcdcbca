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
                throw WebError(400, RequestProblem.whichAudiobook)
            }
            let session = try sessions.session(id: id).session
            struct Arrivals: Encodable {
                let book: String
                let tracks: [PlayerDocument.Track]
                let chapters: [PlayerDocument.Chapter]
                let arriving: Nullable<Arriving>
            }
            return .json(
                document: Arrivals(
                    book: id, tracks: PlayerAPI.tracks(session, id: id, audioPrefix: audioPrefix),
                    chapters: PlayerAPI.chapters(session),
                    arriving: arriving(session, book: try ShelfRecord.find(id, in: app).book)))
        }
    }

    /// The parts still arriving, with the host's words for them (`PartsArriving`), and the loan to resume their
    /// download with once it stopped (null otherwise).
    struct Arriving: Encodable {
        struct Resume: Encodable { let id: String, account: String }
        let resume: Nullable<Resume>
        let here: Int, count: Int, bytes: Int64
        let total: Nullable<Int64>
        let waiting: Bool, stopped: Bool
        let message: String, label: String
    }

    /// The parts still arriving, or null when every part is here.
    static func arriving(_ session: ListeningSession, book: ShelfBook) -> Nullable<Arriving> {
        Nullable(
            session.partsArriving.map { parts in
                Arriving(
                    resume: Nullable(
                        parts.stopped && book.loanEntryID != nil
                            ? .init(id: book.loanEntryID ?? "", account: book.loanAccountID ?? "") : nil),
                    here: parts.here, count: parts.count, bytes: parts.bytes, total: Nullable(parts.total),
                    waiting: parts.waiting, stopped: parts.stopped, message: parts.words(for: .browser).line,
                    label: parts.label)
            })
    }
}
