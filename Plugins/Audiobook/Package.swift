import Foundation
import PluginAPI
import PluginKit
import LibZip

/// A zip package (`.audiobook`, LPF): its manifest, and its tracks copied out on demand to the
/// plugin's cache so that FFmpeg can seek in them. Entry names that leave the root, absurd
/// sizes and ratios are refused.
final class AudioPackage {
    let path: String
    private let archive: ZipReader
    private let lock = NSLock()

    static let maxManifest: UInt64 = 16 << 20
    static let maxTrack: UInt64 = 8 << 30
    static let limits: ZipLimits = {
        var l = ZipLimits()
        l.maxEntries = 100_000
        l.maxEntrySize = maxTrack
        l.maxTotalSize = 64 << 30
        return l
    }()

    init(path: String) throws {
        self.path = path
        do {
            archive = try ZipReader(path: path, limits: Self.limits)
        } catch let e as ZipError {
            var described = e
            described.message = "is not a readable zip package: \(e.message)"
            described.location = path
            throw PluginFailure(described)
        }
    }

    func has(_ name: String) -> Bool { archive.contains(name) }

    private func entry(_ name: String) throws -> ZipEntry {
        guard let e = archive.entry(named: name) else {
            throw PluginFailure.notFound("the package has no entry \(name)", at: name)
        }
        return e
    }

    /// Reads an entry whole (for manifests and small resources).
    func read(_ name: String, limit: UInt64 = maxManifest) throws -> Data {
        let e = try entry(name)
        guard e.size <= limit else { throw PluginFailure.limit("entry is larger than \(limit) bytes", at: name) }
        do { return try archive.read(e) } catch let z as ZipError { throw PluginFailure(z) }
    }

    /// Copies an entry to `destination` (atomically) unless a complete copy is already there.
    func extract(_ name: String, to destination: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let e = try entry(name)
        // A probe: no copy there (or none readable) means copying it now.
        if let attrs = try? FileManager.default.attributesOfItem(atPath: destination),
            (attrs[.size] as? NSNumber)?.uint64Value == e.size
        {
            return
        }
        let temp = destination + ".part"
        guard FileManager.default.createFile(atPath: temp, contents: nil),
            let out = FileHandle(forWritingAtPath: temp)
        else {
            throw PluginFailure.io("cannot write to the plugin's cache", at: temp)
        }
        do {
            do { try archive.stream(e) { out.write(Data($0)) } } catch let z as ZipError { throw PluginFailure(z) }
            try out.close()
            // An incomplete copy in the way, usually absent; the move below fails if it is still there.
            _ = try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.moveItem(atPath: temp, toPath: destination)
        } catch {
            // Tidying after the error thrown below, which is the one that matters.
            try? out.close()
            try? FileManager.default.removeItem(atPath: temp)  // as above
            throw error
        }
    }
}
