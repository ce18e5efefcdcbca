import Foundation

/// A real audiobook for one of the fake library's audiobook titles (which otherwise fulfil with an EPUB): a Readium
/// audiobook manifest (`application/audiobook+json`, readingOrder with durations, a toc) whose parts are MP3 tones
/// made at test time by ffmpeg. The first part is sent at once; the others `chunk` bytes every `interval` seconds,
/// so that they are still arriving while the first plays.
public struct FakeAudiobook: Sendable {
    public let title: String
    /// Each part's MP3 bytes and its length in seconds.
    public let parts: [Data]
    public let seconds: [Double]
    public var chunk: Int
    public var interval: TimeInterval

    /// Makes `count` parts of `seconds` each (tones of rising pitch) with ffmpeg in a temporary folder. Throws when
    /// ffmpeg is missing or fails (scripts/install-deps.sh installs it).
    public static func make(
        title: String, count: Int = 3, seconds: Double = 20, chunk: Int = 2048, interval: TimeInterval = 0.5
    ) throws -> FakeAudiobook {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fake-audiobook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var parts: [Data] = []
        for index in 0..<count {
            let file = folder.appendingPathComponent("part-\(index + 1).mp3")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
                "sine=frequency=\(330 + 110 * index):sample_rate=22050:duration=\(seconds)", "-ac", "1", "-b:a", "32k",
                file.path
            ]
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: file.path) else {
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg could not make \(file.path)"])
            }
            parts.append(data)
        }
        return FakeAudiobook(
            title: title, parts: parts, seconds: Array(repeating: seconds, count: count), chunk: chunk,
            interval: interval)
    }

    /// The manifest, its parts at `partURL(index)`.
    func manifest(id: String, partURL: (Int) -> String) -> Data {
        let order: [[String: Any]] = parts.indices.map { index in
            [
                "href": partURL(index), "type": "audio/mpeg", "duration": seconds[index],
                "title": "Part \(index + 1)"
            ]
        }
        let toc: [[String: Any]] = parts.indices.map { ["href": partURL($0), "title": "Chapter \($0 + 1)"] }
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": [
                "@type": "http://schema.org/Audiobook",
                "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook", "identifier": id,
                "title": title, "language": "en", "duration": seconds.reduce(0, +)
            ] as [String: Any],
            "readingOrder": order, "toc": toc
        ]
        return (try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])) ?? Data()
    }
}

extension FakeLibrary {
    /// Fulfils the loan of the audiobook title `id` with `book`'s manifest, its parts served at
    /// `/audiobooks/KEY/part-N.mp3` (the first at once, the others throttled; Range honoured, so a part resumes).
    public func serveAudiobook(_ book: FakeAudiobook, for id: String) {
        let key = Self.key(id)
        let partURL = { (index: Int) in self.url("/audiobooks/\(key)/part-\(index + 1).mp3") }
        let manifest = book.manifest(id: id, partURL: partURL)
        server.route("GET", "/works/\(key)/fulfill") { [unowned self] request in
            guard isSignedIn(request) else { return .status(401) }
            guard onLoan(id) else { return .status(403) }
            return .data(manifest, contentType: "application/audiobook+json")
        }
        for (index, data) in book.parts.enumerated() {
            server.route("GET", "/audiobooks/\(key)/part-\(index + 1).mp3") { request in
                let answer = LoopbackHTTPServer.Response.content(data, for: request, contentType: "audio/mpeg")
                return index == 0 ? answer : answer.with(fault: .throttle(chunk: book.chunk, interval: book.interval))
            }
        }
    }
}
