import Foundation
import PluginAPI
import PluginKit

/// An open audiobook: its model, where its tracks are, and decoders on demand.
final class AudiobookPublication: AudioPublication {
    let book: BookModel
    let package: AudioPackage?
    let cacheDirectory: String
    /// A manifest's local tracks, read through the host when this process may not read them (LocalFiles).
    let files: LocalFiles?
    private let manifestValue: Manifest

    init(book: BookModel, package: AudioPackage?, cacheDirectory: String, files: LocalFiles? = nil) {
        self.book = book
        self.package = package
        self.cacheDirectory = cacheDirectory
        self.files = files
        self.manifestValue = book.manifest()
    }

    func manifest() throws -> Manifest { manifestValue }

    func track(for href: String) -> Track? {
        let bare = BookModel.stripFragment(href)
        if let t = book.tracks.first(where: { $0.href == bare }) { return t }
        let decoded = bare.removingPercentEncoding ?? bare
        return book.tracks.first(where: { ($0.href.removingPercentEncoding ?? $0.href) == decoded })
    }

    func resource(href: String) throws -> Data {
        let bare = BookModel.stripFragment(href)
        if let t = track(for: bare) {
            switch t.source {
            case .file(let path):
                guard let data = files?.contents(path) ?? FileManager.default.contents(atPath: path) else {
                    throw PluginFailure.notFound("the track file is missing", at: path)
                }
                return data
            case .zipEntry(let name):
                guard let package else { throw PluginFailure.notFound("no package", at: name) }
                return try package.read(name, limit: 1 << 30)
            case .remote(let url):
                throw PluginFailure.notFound(
                    "the track is on the network (\(url.absoluteString)); the host downloads it", at: bare)
            }
        }
        // Other files of a package (cover, manifest).
        if let package {
            let name = bare.removingPercentEncoding ?? bare
            if package.has(name) { return try package.read(name, limit: 256 << 20) }
        }
        throw PluginFailure.notFound("the audiobook has no resource \(bare)", at: bare)
    }

    func openDecoder(href: String, sampleRate: Int?, channels: Int?, file: String?) throws -> AudioDecoder {
        guard let t = track(for: href) else {
            throw PluginFailure.notFound("the audiobook has no track \(href)", at: href)
        }
        let path: String
        if let file {
            path = file
        } else {
            switch t.source {
            case .file(let p): path = files?.readable(p) ?? p
            case .zipEntry(let name): path = try extracted(name)
            case .remote(let url):
                throw PluginFailure.notFound(
                    "the track is on the network and has not been downloaded (\(url.absoluteString))", at: href)
            }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PluginFailure.notFound("the track file is missing", at: path)
        }
        return try TrackDecoder(path: path, sampleRate: sampleRate, channels: channels)
    }

    /// A package entry copied to the cache, named by the package and the entry.
    func extracted(_ name: String) throws -> String {
        guard let package else { throw PluginFailure.notFound("no package", at: name) }
        // Only part of a cache key: unknown, the package is keyed by its path alone and copied out again if it changed.
        let attrs = try? FileManager.default.attributesOfItem(atPath: package.path)
        let stamp =
            "\(package.path)|\((attrs?[.size] as? NSNumber)?.int64Value ?? 0)|\((attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in stamp.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let dir = (cacheDirectory as NSString).appendingPathComponent(String(format: "pkg-%016llx", hash))
        // Without the folder, `extract` below fails saying it cannot write to the plugin's cache.
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let safe = name.replacingOccurrences(of: "/", with: "_")
        let dest = (dir as NSString).appendingPathComponent(safe)
        try package.extract(name, to: dest)
        return dest
    }
}
