import Foundation
import PluginAPI
import PluginKit

/// Audiobooks in every common form: Readium audiobook manifests (local or fetched), `.audiobook`
/// packages, W3C audiobooks and LPF packages, single M4B/M4A files with chapter atoms and MP3
/// tracks with ID3 chapters. Decodes through FFmpeg behind `shelf.audio/1`.
final class AudiobookPlugin: FormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.audiobook",
        name: "Audiobooks",
        version: "0.2.0",
        description: "Readium audiobook manifests, .audiobook packages, W3C audiobooks, M4B and MP3.",
        mediaTypes: [
            "application/audiobook+json", "application/audiobook+zip", "application/lpf+zip",
            "audio/mp4", "audio/mpeg", "audio/ogg", "audio/flac", "audio/wav"
        ],
        fileExtensions: ["audiobook", "lpf", "m4b", "m4a", "mp3", "ogg", "opus", "flac", "wav"],
        capabilities: [.format, .audio],
        concurrentHandles: true
    )

    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }

    static let audioExtensions: Set<String> = ["m4b", "m4a", "mp3", "ogg", "opus", "flac", "wav"]

    static let jsonTypes: Set<String> = [
        "application/json", "application/webpub+json", "application/ld+json",
        "application/audiobook+json", "text/plain"
    ]

    func probe(_ input: PluginInput) -> Int32 {
        let type = input.mediaType ?? ""
        switch type {
        case "application/audiobook+json", "application/audiobook+zip": return 100
        case "application/lpf+zip": return 90
        case "audio/mp4", "audio/mpeg", "audio/ogg", "audio/flac", "audio/wav": return 90
        default: break
        }
        guard Self.jsonTypes.contains(type) || type.isEmpty else { return 0 }
        // An audio file named as one but empty or unrecognisable: open says what is wrong with it.
        if input.head.isEmpty || type.isEmpty,
            Self.audioExtensions.contains((input.path as NSString).pathExtension.lowercased())
        {
            return 10
        }
        // A JSON document that is an audiobook without saying so in a way the sniffer knows.
        let text = String(decoding: input.head.prefix(65536), as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{" else { return 0 }
        if text.contains("\"audio/") || text.contains("Audiobook") || text.contains("audiobook")
            || text.contains("findaway:") || text.contains("reserveId")
        {
            return 60
        }
        return 0
    }

    func open(_ input: PluginInput) throws -> PublicationHandle {
        let cache = host.cacheDirectory.isEmpty ? NSTemporaryDirectory() : host.cacheDirectory
        let location = (input.path as NSString).lastPathComponent
        guard input.fileSize > 0, !input.head.isEmpty else {
            throw PluginFailure.badData("is empty", at: location)
        }
        if input.head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return try openPackage(input, cache: cache, location: location)
        }
        let text = input.head.prefix(4096).drop {
            $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
        }
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
            guard input.fileSize <= 64 << 20 else {
                throw PluginFailure.limit("manifest is larger than 64 MiB", at: location)
            }
            guard let data = FileManager.default.contents(atPath: input.path) else {
                throw PluginFailure.io("cannot be read", at: location)
            }
            let base: ManifestParser.Base
            if let url = URL(string: input.uri), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            {
                base = .url(url)
            } else {
                base = .directory(
                    (input.path as NSString).deletingLastPathComponent.isEmpty
                        ? "."
                        : (input.path as NSString).deletingLastPathComponent)
            }
            var parser = ManifestParser(base: base)
            // The manifest's other files: read here, or asked of the host when this process is confined.
            let files = LocalFiles(host: host, bookPath: input.path, cache: cache)
            if case .directory(let dir) = base {
                parser.readResource = { name in
                    let path = name.hasPrefix("/") ? name : (dir as NSString).appendingPathComponent(name)
                    return files.contents(path)
                }
            }
            var book = try parser.parse(data, location: location)
            measure(&book, files)
            return AudiobookPublication(book: book, package: nil, cacheDirectory: cache, files: files)
        }
        return try openSingleFile(input, cache: cache, location: location)
    }

    private func openPackage(_ input: PluginInput, cache: String, location: String) throws -> PublicationHandle {
        let package = try AudioPackage(path: input.path)
        let manifestName =
            package.has("manifest.json")
            ? "manifest.json"
            : package.has("publication.json") ? "publication.json" : nil
        guard let manifestName else {
            if package.has("META-INF/container.xml") || package.has("mimetype") {
                throw PluginFailure(
                    SHELF_E_UNSUPPORTED, "is an EPUB or other zip publication, not an audiobook package", at: location)
            }
            throw PluginFailure.badData(
                "is a zip without manifest.json or publication.json, so it is not an audiobook package", at: location)
        }
        let data = try package.read(manifestName)
        var parser = ManifestParser(base: .package)
        // A linked resource (a separate TOC) that cannot be read is one the parser goes without, as if not linked.
        parser.readResource = { name in package.has(name) ? try? package.read(name, limit: 8 << 20) : nil }
        var book = try parser.parse(data, location: "\(location)/\(manifestName)")
        let publication = AudiobookPublication(book: book, package: package, cacheDirectory: cache)
        // Measure the tracks inside: they are copied to the cache once, then read from there.
        for i in book.tracks.indices {
            guard case .zipEntry(let name) = book.tracks[i].source, package.has(name) else { continue }
            // Measuring only: a track that cannot be copied out keeps its declared length, and playing it says why.
            if let path = try? publication.extracted(name) {
                TrackHealth.check(path: path, declared: book.tracks[i].duration).apply(to: &book.tracks[i])
                if book.tracks[i].type == nil { book.tracks[i].type = ManifestParser.guessType(name) }
            }
        }
        // As above: a track that cannot be copied out gives no chapters, and the track itself stands for them.
        if book.toc.isEmpty { chaptersOrTracks(&book) { name in try? publication.extracted(name) } }
        return AudiobookPublication(book: book, package: package, cacheDirectory: cache)
    }

    private func openSingleFile(_ input: PluginInput, cache: String, location: String) throws -> PublicationHandle {
        let media = try MediaFile(path: input.path)
        let name = (input.path as NSString).lastPathComponent
        let href =
            name.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: ":"))) ?? name
        var type = input.mediaType
        if type == nil || !(type!.hasPrefix("audio/")) { type = ManifestParser.guessType(name) ?? "audio/mpeg" }
        let title = media.tag("album") ?? media.tag("title") ?? ((name as NSString).deletingPathExtension)
        var track = Track(
            href: href, source: .file((input.path as NSString).standardizingPath), type: type,
            title: media.tag("title") ?? title, duration: media.declaredDuration, bitrate: nil, properties: nil)
        TrackHealth.check(path: input.path, declared: nil).apply(to: &track)
        var book = BookModel(title: title, tracks: [track])
        book.authors = [media.tag("album_artist") ?? media.tag("artist")].compactMap { $0 }
        book.narrators = [media.tag("composer")].compactMap { $0 }.filter { !book.authors.contains($0) }
        let chapters = media.chapters
        if chapters.isEmpty {
            book.tocFromTracks()
        } else {
            book.toc = chapters.enumerated().map { i, c in
                TocEntry(title: c.title ?? "Chapter \(i + 1)", trackIndex: 0, offset: c.start, children: [])
            }
        }
        return AudiobookPublication(book: book, package: nil, cacheDirectory: cache)
    }

    /// Local tracks get their measured length; remote ones keep the manifest's until the host measures them.
    private func measure(_ book: inout BookModel, _ files: LocalFiles) {
        for i in book.tracks.indices {
            guard case .file(let path) = book.tracks[i].source else { continue }
            // A track that cannot be read at all is measured at its own path: TrackHealth says it is missing.
            TrackHealth.check(path: files.readable(path) ?? path, declared: book.tracks[i].duration)
                .apply(to: &book.tracks[i])
        }
        if book.toc.isEmpty {
            chaptersOrTracks(&book, files: files) { _ in nil }
        }
    }

    /// A TOC from the tracks' own chapters (M4B atoms, ID3 CHAP) where they have them, else one per track.
    private func chaptersOrTracks(_ book: inout BookModel, files: LocalFiles? = nil, extract: (String) -> String?) {
        var entries: [TocEntry] = []
        for (i, t) in book.tracks.enumerated() {
            var path: String?
            switch t.source {
            case .file(let p): path = files?.readable(p) ?? p
            case .zipEntry(let n): path = extract(n)
            case .remote: path = nil
            }
            // A file that does not open has no chapters to offer; TrackHealth says what is wrong with it.
            let chapters =
                path.flatMap { FileManager.default.fileExists(atPath: $0) ? (try? MediaFile(path: $0))?.chapters : nil }
                ?? []
            if chapters.count > 1 || (chapters.count == 1 && book.tracks.count == 1) {
                entries += chapters.enumerated().map { j, c in
                    TocEntry(
                        title: c.title ?? "\(t.title ?? "Track \(i + 1)"), part \(j + 1)", trackIndex: i,
                        offset: c.start, children: [])
                }
            } else {
                entries.append(
                    TocEntry(
                        title: chapters.first?.title ?? t.title ?? "Track \(i + 1)", trackIndex: i, offset: 0,
                        children: []))
            }
        }
        book.toc = entries
    }
}
