import Foundation
import Host

/// A book with text listened to in the reader (web/js/reader/listen.js): the host's listening session reads it
/// aloud (its speech plugin speaking ahead of playback, from the reader's place), and the browser's audio element
/// plays the tracks as they are spoken, served as audiobook tracks are (Range requests on a path under the launch's
/// book token, `/spoken/TOKEN/KEY/SESSION/TRACK`). A track still being spoken is served as far as it is spoken
/// (`?frames=N`, a WAV of its own whose header says that many); the page asks for more as it plays. The sentences
/// come with the time each is heard, so the page highlights the one playing; the place goes back to the host,
/// which keeps the sentence heard as the book's reading place.
enum SpokenAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router
        let spoken = SpokenSessions(app: app)
        let prefix = "/spoken" + app.bookResources.prefix.dropFirst("/book".count)

        // Pressing Listen: a new session from the reader's place (an earlier one of the book ends).
        router.add("POST", "/api/listen") { request in
            guard let id = try request.json().word("book") else {
                throw WebError(400, RequestProblem.missingMember(name: "book"))
            }
            let listening = try spoken.open(id: id)
            return .json(document: answer(listening, id: id, track: listening.start, from: 0, prefix: prefix))
        }

        // What is spoken so far, and the sentences of a track the page does not have yet (from the `from`th).
        router.add("GET", "/api/listen") { request in
            guard let id = request.query["book"], !id.isEmpty else {
                throw WebError(400, RequestProblem.whichBook)
            }
            let listening = try spoken.session(id: id)
            let track = request.query["track"].flatMap { Int($0) } ?? listening.start
            let from = request.query["from"].flatMap { Int($0) } ?? 0
            return .json(document: answer(listening, id: id, track: track, from: from, prefix: prefix))
        }

        router.add("POST", "/api/listen/position") { request in
            let body = try request.json()
            guard let id = body.word("book") else { throw WebError(400, RequestProblem.missingMember(name: "book")) }
            guard let track = body.number("track").map({ Int($0) }), let seconds = body.number("seconds"),
                seconds.isFinite, seconds >= 0
            else {
                throw WebError(400, ListeningRequestProblem.spokenPlaceNotGiven)
            }
            let listening = try spoken.session(id: id)
            do {
                try listening.session.reportSpokenPosition(
                    track: track, seconds: seconds, playing: body.bool("playing") ?? false)
            } catch {
                throw WebError(503, ListeningRequestProblem.placeNotSaved(because: error))
            }
            struct Position: Encodable { let book: String, track: Int, seconds: Double }
            return .json(document: Position(book: id, track: track, seconds: seconds))
        }

        router.add("GET", "\(prefix)/{key}/{session}/{track}", access: .bookResource) { request in
            guard let key = request.parameters["key"], let id = BookKey.id(key),
                let number = request.parameters["session"].flatMap({ Int($0) }),
                let track = request.parameters["track"].flatMap({ Int($0) }),
                let listening = try? spoken.session(id: id), listening.number == number,
                let audio = listening.session.spokenAudio(
                    track: track, frames: request.query["frames"].flatMap { Int64($0) })
            else {
                throw WebError(404, ListeningRequestProblem.noSpokenTrack)
            }
            return try serve(audio, range: request.header("range"))
        }
    }

    /// The answer of both /api/listen routes: the session, its tracks, and a track's sentences from `from`. Encoded
    /// as a document: JSONSerialization of Mémoires' 575 tracks took as long as opening the session did.
    struct Answer: Encodable {
        struct Track: Encodable {
            let index: Int
            let href: String
            let title: String?
            let seconds: Double
            let frames: Int64
            let complete: Bool
            let url: String
        }
        struct Sentence: Encodable {
            let time: Double
            let offset: Int
            let length: Int
            let progression: Double
            let text: String
        }
        let book: String
        let session: Int
        let start: Int
        let startWords: String
        /// The host's sentence that Listen is ready from there (`ReadAloudReady`), as the page shows and says it.
        let said: String
        let tracks: [Track]
        let track: Int
        let from: Int
        let sentences: [Sentence]
    }

    static func answer(_ listening: SpokenSessions.Listening, id: String, track: Int, from: Int, prefix: String)
        -> Answer
    {
        // The book's key once, not for each track.
        let base = "\(prefix)/\(BookKey.key(id))/\(listening.number)/"
        let tracks = (listening.session.spokenTracks ?? []).map { t in
            Answer.Track(
                index: t.index, href: t.href, title: t.title, seconds: t.seconds, frames: t.frames,
                complete: t.complete,
                url: base + String(t.index))
        }
        let sentences = listening.session.spokenSentences(track: track, from: from).map { s in
            Answer.Sentence(time: s.time, offset: s.offset, length: s.length, progression: s.progression, text: s.text)
        }
        return Answer(
            book: id, session: listening.number, start: listening.start, startWords: listening.startWords,
            said: ReadAloudReady(from: listening.startWords).words(for: .browser).line, tracks: tracks, track: track,
            from: from, sentences: sentences)
    }

    /// A spoken track's bytes, whole or the range asked (RFC 9110, as RangeResponse serves audiobook tracks).
    static func serve(_ audio: SpokenAudio, range: String?) throws -> WebResponse {
        let size = audio.size
        var (start, end) = (0, size - 1)
        if let range {
            guard let (first, last) = RangeResponse.parse(range, size: size) else {
                return WebResponse(
                    status: 416, headers: [("Content-Range", "bytes */\(size)"), ("Accept-Ranges", "bytes")])
            }
            (start, end) = (first, last)
        }
        var data = Data()
        if start < audio.header.count { data.append(audio.header[start..<min(audio.header.count, end + 1)]) }
        if end >= audio.header.count {
            guard let handle = try? FileHandle(forReadingFrom: audio.file) else {
                throw WebError(404, ListeningRequestProblem.spokenTrackFileMissing)
            }
            // Only read: closing cannot lose anything.
            defer { try? handle.close() }
            let from = max(start, audio.header.count)
            try handle.seek(toOffset: UInt64(from))
            data.append(try handle.read(upToCount: end - from + 1) ?? Data())
        }
        guard range != nil else {
            return WebResponse(status: 200, contentType: "audio/wav", headers: [("Accept-Ranges", "bytes")], body: data)
        }
        return WebResponse(
            status: 206, contentType: "audio/wav",
            headers: [
                ("Accept-Ranges", "bytes"), ("Content-Range", "bytes \(start)-\(start + data.count - 1)/\(size)")
            ],
            body: data)
    }
}

/// The books being read aloud to the browser: one listening session a book, replaced each time Listen is pressed
/// (it starts from the reader's place then). Unchecked Sendable: the sessions are read and written under `lock`;
/// each session is safe from several threads itself.
final class SpokenSessions: @unchecked Sendable {
    struct Listening {
        let session: ListeningSession
        /// This server's count of sessions: a track's address names its session, so a page playing an ended one
        /// is told so rather than given another session's sound.
        let number: Int
        let start: Int
        let startWords: String
    }

    private unowned let app: WebApp
    private let lock = NSLock()
    private var open: [String: Listening] = [:]
    private var count = 0

    init(app: WebApp) { self.app = app }

    func open(id: String) throws -> Listening {
        let (book, _) = try ShelfRecord.find(id, in: app)
        guard book.format != .audiobook else {
            throw WebError(409, ListeningRequestProblem.anAudiobook(title: book.book.title), kind: "an-audiobook")
        }
        let path = try ReaderBooks.path(of: book, on: try app.bookshelf())
        // The earlier session of the book ends first: its speaking stops, and it no longer takes the place.
        _ = lock.withLock { open.removeValue(forKey: id) }
        // Synthesised speech, also for a narrated book: the reader plays a narration from the book's own audio.
        var options = ListeningOptions()
        options.narration = false
        let session = try app.shelf.listen(path, options: options)
        let words = try session.start(from: .saved)
        guard let start = session.spokenTracks?.first?.index else {
            throw WebError(409, ListeningRequestProblem.noTextToReadAloud(title: book.book.title), kind: "no-text")
        }
        return lock.withLock {
            count += 1
            let listening = Listening(session: session, number: count, start: start, startWords: words)
            open[id] = listening
            return listening
        }
    }

    func session(id: String) throws -> Listening {
        guard let listening = lock.withLock({ open[id] }) else {
            throw WebError(404, ListeningRequestProblem.notBeingListenedTo, kind: "not-listening")
        }
        return listening
    }
}
