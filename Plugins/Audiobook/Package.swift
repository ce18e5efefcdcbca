import CZip
import Foundation
import PluginAPI
import PluginKit

/// A zip package (`.audiobook`, LPF): its manifest, and its tracks copied out on demand to the
/// plugin's cache so that FFmpeg can seek in them. Entry names that leave the root, absurd
/// sizes and ratios are refused.
final class AudioPackage {
    let path: String
    private var handle: OpaquePointer?
    private(set) var names: [String: UInt64] = [:]
    private let lock = NSLock()

    static let maxEntries = 100_000
    static let maxManifest: UInt64 = 16 << 20
    static let maxTrack: UInt64 = 8 << 30
    static let maxRatio: UInt64 = 200

    init(path: String) throws {
        self.path = path
        var code: Int32 = 0
        guard let za = zip_open(path, ZIP_RDONLY, &code) else {
            throw PluginFailure.badData("is not a readable zip package (libzip error \(code))", at: path)
        }
        handle = za
        let count = zip_get_num_entries(za, 0)
        guard count >= 0, count <= Self.maxEntries else {
            zip_discard(za)
            handle = nil
            throw PluginFailure.limit("has more entries than shelf accepts (\(Self.maxEntries))", at: path)
        }
        for i in 0..<UInt64(count) {
            guard let cname = zip_get_name(za, i, 0) else { continue }
            let name = String(cString: cname)
            if name.hasPrefix("/") || name.split(separator: "/").contains("..") { continue } // escapes the root
            names[name] = i
        }
    }

    deinit { if let handle { zip_discard(handle) } }

    func has(_ name: String) -> Bool { names[name] != nil }

    private func stat(_ index: UInt64) throws -> zip_stat_t {
        var st = zip_stat_t()
        zip_stat_init(&st)
        guard let handle, zip_stat_index(handle, index, 0, &st) == 0 else {
            throw PluginFailure.badData("has an unreadable entry", at: path)
        }
        if (st.valid & UInt64(ZIP_STAT_ENCRYPTION_METHOD)) != 0, st.encryption_method != 0 {
            throw PluginFailure.protected("has an encrypted entry (zip encryption); shelf cannot play it", at: path)
        }
        if st.size > 1 << 20, st.comp_size > 0, st.size / st.comp_size > Self.maxRatio {
            throw PluginFailure.limit("has an entry that inflates more than \(Self.maxRatio) times (a zip bomb?)", at: path)
        }
        return st
    }

    /// Reads an entry whole (for manifests and small resources).
    func read(_ name: String, limit: UInt64 = maxManifest) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        guard let index = names[name] else { throw PluginFailure.notFound("the package has no entry \(name)", at: name) }
        let st = try stat(index)
        guard st.size <= limit else { throw PluginFailure.limit("entry is larger than \(limit) bytes", at: name) }
        var data = Data()
        try stream(index, name: name, expected: st.size) { data.append($0) }
        return data
    }

    /// Copies an entry to `destination` (atomically) unless a complete copy is already there.
    func extract(_ name: String, to destination: String) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let index = names[name] else { throw PluginFailure.notFound("the package has no entry \(name)", at: name) }
        let st = try stat(index)
        guard st.size <= Self.maxTrack else { throw PluginFailure.limit("track is larger than shelf accepts", at: name) }
        if let attrs = try? FileManager.default.attributesOfItem(atPath: destination),
           (attrs[.size] as? NSNumber)?.uint64Value == st.size { return }
        let temp = destination + ".part"
        guard FileManager.default.createFile(atPath: temp, contents: nil),
              let out = FileHandle(forWritingAtPath: temp) else {
            throw PluginFailure.io("cannot write to the plugin's cache", at: temp)
        }
        do {
            try stream(index, name: name, expected: st.size) { out.write($0) }
            try out.close()
            _ = try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.moveItem(atPath: temp, toPath: destination)
        } catch {
            try? out.close()
            try? FileManager.default.removeItem(atPath: temp)
            throw error
        }
    }

    private func stream(_ index: UInt64, name: String, expected: UInt64, _ sink: (Data) -> Void) throws {
        guard let handle, let file = zip_fopen_index(handle, index, 0) else {
            throw PluginFailure.badData("cannot open the entry", at: name)
        }
        defer { zip_fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total: UInt64 = 0
        while true {
            let n = zip_fread(file, &buffer, UInt64(buffer.count))
            if n < 0 { throw PluginFailure.badData("the entry is damaged", at: name) }
            if n == 0 { break }
            total += UInt64(n)
            guard total <= expected else { throw PluginFailure.badData("the entry is longer than the directory says", at: name) }
            sink(Data(buffer[0..<Int(n)]))
        }
    }
}
