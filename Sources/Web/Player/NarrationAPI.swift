import Foundation
import Host

/// A narrated book in the reader (EPUB 3 media overlays; web/js/reader/narration.js): the page plays the book's own
/// audio, phrase by phrase as the manifest's clips say (`readingOrder[].alternate[].properties.clips`), with the
/// audio element of the app's page. The audio files are the book's resources on the app's own origin
/// (`/book/TOKEN/read/KEY/PATH`, served in parts for Range requests as audiobook tracks are), because the app's
/// page plays media from its own origin only. The place heard goes back as the reading place (a locator naming the
/// phrase, `POST /api/reader/place`); what Listen says comes from the host's words (`NarrationNotice`, loaded with
/// the others from `GET /api/words`).
enum NarrationAPI: WebModule {
    /// The answer: where the book's audio is.
    struct Answer: Encodable {
        let book: String
        let audioBase: String
    }

    static func install(in app: WebApp) {
        app.router.add("GET", "/api/reader/narration") { request in
            guard let id = request.query["book"], !id.isEmpty else {
                throw WebError(400, RequestProblem.whichBook)
            }
            _ = try ShelfRecord.find(id, in: app)
            return .json(document: Answer(book: id, audioBase: app.bookResources.url("read", BookKey.key(id)) + "/"))
        }
    }
}
