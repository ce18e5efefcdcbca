import Foundation
import Host

/// The player in the API (web/js/pages/listen.js): an audiobook's tracks, chapters and saved place from the host's
/// listening session, and the place the browser's audio element reached reported back to it, so that
/// `shelf listen` goes on where the browser stopped and the browser where `shelf listen` stopped. The session is
/// the host's own (`Shelf.listen`): it keeps the position, the chapters and the downloads; the browser only plays.
/// Tracks are served with Range requests at `/audio/TOKEN/KEY/HREF`, TOKEN being the launch's book token (a path
/// of its own: the audio element's Range header must reach the route, which a book resource provider does not see).
enum PlayerAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router
        let sessions = ListeningSessions(app: app)
        let audioPrefix = "/audio" + app.bookResources.prefix.dropFirst("/book".count)

        router.add("GET", "\(audioPrefix)/{key}/{path...}", access: .bookResource) { request in
            // Only a track the manifest names is served (`trackFile`); a path that leaves the book (`..`, decoded
            // from `..%2f` by now, or absolute) is refused before the book is even looked up.
            guard let key = request.parameters["key"], let id = BookKey.id(key), let href = request.parameters["path"],
                !href.hasPrefix("/"), !href.split(separator: "/").contains("..")
            else {
                throw WebError(404, ListeningRequestProblem.notATrack(href: request.parameters["path"] ?? ""))
            }
            let file = try sessions.trackFile(id: id, href: href)
            return try RangeResponse.serve(file: file.url, type: file.type, range: request.header("range"))
        }

        router.add("GET", "/api/player") { request in
            guard let id = request.query["book"], !id.isEmpty else {
                throw WebError(400, RequestProblem.whichAudiobook)
            }
            let listening = try sessions.session(id: id)
            return .json(
                document: PlayerDocument(
                    book: listening.record, tracks: tracks(listening.session, id: id, audioPrefix: audioPrefix),
                    chapters: chapters(listening.session),
                    arriving: PartArrivalsAPI.arriving(
                        listening.session, book: try ShelfRecord.find(id, in: app).book),
                    position: .init(
                        seconds: try listening.session.savedSeconds(),
                        savedSecondsAgo: Nullable(try listening.session.secondsSinceSaved())),
                    rules: ListeningRules.document,
                    cover: listening.cover.map { app.bookResources.url("read", BookKey.key(id) + "/" + $0) }))
        }

        // The place the browser reached: saved by the host's listening session as its own engine saves it.
        router.add("POST", "/api/player/position") { request in
            let body = try request.json()
            guard let id = body.word("book") else { throw WebError(400, RequestProblem.missingMember(name: "book")) }
            guard let seconds = body.number("seconds"), seconds.isFinite, seconds >= 0 else {
                throw WebError(400, ListeningRequestProblem.secondsNotATime)
            }
            let listening = try sessions.session(id: id)
            do {
                try listening.session.reportPosition(seconds: seconds, playing: body.bool("playing") ?? false)
            } catch {
                throw WebError(503, ListeningRequestProblem.placeNotSaved(because: error))
            }
            return .json(document: Position(book: id, seconds: try listening.session.savedSeconds()))
        }

        PartArrivalsAPI.install(in: app, sessions: sessions, audioPrefix: audioPrefix)
    }

    /// The tracks in the document: each with its address here, its length, whether it can play and why not.
    static func tracks(_ session: ListeningSession, id: String, audioPrefix: String) -> [PlayerDocument.Track] {
        session.tracks.enumerated().map { index, track in
            let url: String =
                audioPrefix + "/" + BookKey.key(id) + "/"
                + track.href.split(separator: "/").map {
                    $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
                }.joined(separator: "/")
            return PlayerDocument.Track(
                href: track.href, title: track.title ?? "Part \(index + 1)", duration: track.duration, url: url,
                available: track.available, state: track.hold.map(Self.state) ?? "here", why: Nullable(track.why),
                wait: Nullable(track.wait))
        }
    }

    /// The chapters on the book's time line, each with whether its part can play now.
    static func chapters(_ session: ListeningSession) -> [PlayerDocument.Chapter] {
        session.chapterSpans.map { chapter in
            PlayerDocument.Chapter(
                title: chapter.title, start: chapter.start, duration: chapter.duration, track: chapter.track,
                available: chapter.available)
        }
    }

    /// Where listening is, as saved.
    struct Position: Encodable {
        let book: String
        let seconds: Double
    }

    /// A track's state in the document: "here", "downloading" or "unplayable".
    static func state(_ hold: TrackHold) -> String {
        switch hold {
        case .downloading: return "downloading"
        case .unplayable: return "unplayable"
        }
    }
}

/// The host's listening sessions of the books the browser plays, one per book while the server runs.
/// Unchecked Sendable: the open sessions and files are read and written under `lock`; each session is safe from several threads itself.
final class ListeningSessions: @unchecked Sendable {
    struct Listening {
        let session: ListeningSession
        /// The shelf's record of the book (docs/json.md, ShelfBook).
        let record: ShelfBookJSON
        let path: String
        let cover: String?
    }

    private let shelf: Shelf
    private let lock = NSLock()
    private var open: [String: Listening] = [:]
    private var files: [String: (url: URL, type: String)] = [:]

    private unowned let app: WebApp

    init(app: WebApp) {
        self.app = app
        shelf = app.shelf
    }

    func session(id: String) throws -> Listening {
        if let known = lock.withLock({ open[id] }) { return known }
        let (book, record) = try ShelfRecord.find(id, in: app)
        guard book.format == .audiobook else {
            throw WebError(
                409, ListeningRequestProblem.notAnAudiobook(title: book.book.title), kind: "not-an-audiobook")
        }
        let path = try ReaderBooks.path(of: book, on: try app.bookshelf())
        let session = try shelf.listen(path)
        let isCover = { (link: Link) in link.rel?.contains("cover") == true }
        let cover =
            session.manifest.links.first(where: isCover)?.href
            ?? session.manifest.resources?.first(where: isCover)?.href
        let listening = Listening(session: session, record: record, path: path, cover: cover)
        lock.withLock { open[id] = listening }
        return listening
    }

    /// A track as a file on disk in shelf's cache, written once from the book (tracks may be inside a package, as
    /// `shelf resource` extracts them), so that Range requests are served from it without asking the host again.
    func trackFile(id: String, href: String) throws -> (url: URL, type: String) {
        let key = id + "\n" + href
        if let known = lock.withLock({ files[key] }), FileManager.default.fileExists(atPath: known.url.path) {
            return known
        }
        let listening = try session(id: id)
        // A track named by its address (a part still arriving) reaches the route without the address's "//".
        guard
            let track = listening.session.tracks.first(where: {
                $0.href == href || $0.href.split(separator: "/").joined(separator: "/") == href
            })
        else {
            throw WebError(404, ListeningRequestProblem.notATrack(href: href))
        }
        // A remote book's track is the part its download stored; any other book's is extracted from the book.
        if let part = listening.session.downloadedFile(of: track.href) {
            let found = (url: part, type: track.type ?? "audio/mpeg")
            lock.withLock { files[key] = found }
            return found
        }
        // A part still on its way is not here to serve (the player asks again once it has arrived).
        if track.hold == .downloading, let held = track.held { throw WebError(409, held) }
        let folder = try shelf.cacheFolder("serve-tracks")
        // Named by a digest of the book and the href: a cut of them named two tracks ending alike as one file.
        let name =
            Self.digest(key) + "."
            + (URL(fileURLWithPath: href).pathExtension.isEmpty ? "audio" : URL(fileURLWithPath: href).pathExtension)
        let file = folder.appendingPathComponent(String(name))
        if !FileManager.default.fileExists(atPath: file.path) {
            let partial = file.appendingPathExtension("part")
            try shelf.openFile(listening.path).resource(href).write(to: partial)
            guard rename(partial.path, file.path) == 0 else {
                throw WebError(500, ListeningRequestProblem.trackNotKept(folder: folder.path))
            }
        }
        let found = (url: file, type: track.type ?? "audio/mpeg")
        lock.withLock { files[key] = found }
        return found
    }

    /// 128 bits of FNV-1a in hex (two 64-bit passes from different offsets): a file name for `text`, not a secret.
    static func digest(_ text: String) -> String {
        func fnv(_ offset: UInt64) -> UInt64 {
            text.utf8.reduce(offset) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        return String(format: "%016llx%016llx", fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4))
    }
}

/// `GET /api/player` (web/openapi/player.json): the book, its tracks and chapters on the timeline, the parts still
/// arriving, the saved place and the rules every player of shelf follows.
struct PlayerDocument: Encodable {
    struct Track: Encodable {
        let href: String, title: String, duration: Double, url: String, available: Bool, state: String
        let why: Nullable<String>
        let wait: Nullable<String>
    }

    struct Chapter: Encodable {
        let title: String, start: Double, duration: Double, track: Int, available: Bool
    }

    struct Position: Encodable {
        let seconds: Double
        let savedSecondsAgo: Nullable<Double>
    }

    let book: ShelfBookJSON
    let tracks: [Track]
    let chapters: [Chapter]
    let arriving: Nullable<PartArrivalsAPI.Arriving>
    let position: Position
    let rules: ListeningRules.Document
    let cover: String?
}

/// A member the document always has, written as null when there is no value (a synthesized Encodable leaves an
/// optional out instead).
struct Nullable<T: Encodable>: Encodable {
    let value: T?

    init(_ value: T?) { self.value = value }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let value { try c.encode(value) } else { try c.encodeNil() }
    }
}
