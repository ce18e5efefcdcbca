import Foundation
import Glibc
import PluginAPI
import PluginKit

/// The other files of a manifest's folder (its tracks, a table of contents it links), read where this plugin may
/// read them. In shelf's own process it reads them itself. Confined (shelf-plugin(7), "WHERE A PLUGIN RUNS") it
/// may read the manifest alone, so it asks the host for each one through the companion files service (files.h),
/// which opens it only when it lies inside the book's folder and is none of shelf's own files. FFmpeg seeks in a
/// track by path, so a track the host hands over is copied once into the plugin's cache, as a package's are.
struct LocalFiles {
    let host: PluginHost
    /// The manifest's path, as the host gave it, and its folder (standardised, as the parser builds track paths).
    let bookPath: String
    let folder: String
    let cache: String

    init(host: PluginHost, bookPath: String, cache: String) {
        self.host = host
        self.bookPath = bookPath
        let parent = (bookPath as NSString).deletingLastPathComponent
        folder = ((parent.isEmpty ? "." : parent) as NSString).standardizingPath
        self.cache = cache
    }

    /// A path FFmpeg and the file system can read for the file at `path` (in the manifest's folder): the path
    /// itself when this process may read it, else a copy in the cache of what the host handed over. Nil when
    /// neither is possible; the file is then missing, as TrackHealth and the decoder say.
    func readable(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            close(fd)
            return path
        }
        // Not there at all: asking the host would only say so again.
        guard errno == EACCES || errno == EPERM, let handed = try? companion(path) else { return nil }
        defer { close(handed) }
        return try? copy(handed, named: path)
    }

    /// The contents of the file at `path`, read directly or through the host.
    func contents(_ path: String) -> Data? {
        if let data = FileManager.default.contents(atPath: path) { return data }
        guard let handed = try? companion(path) else { return nil }
        return try? FileHandle(fileDescriptor: handed, closeOnDealloc: true).readToEnd()
    }

    /// A descriptor of `path` from the host, asked by its path relative to the manifest's folder.
    private func companion(_ path: String) throws -> Int32 {
        let standard = (path as NSString).standardizingPath
        guard host.hasCompanionFiles, standard.hasPrefix(folder + "/") else {
            throw PluginFailure.io("cannot be read", at: path)
        }
        return try host.openCompanion(bookPath: bookPath, relative: String(standard.dropFirst(folder.count + 1)))
    }

    /// Copies what `fd` reads into the cache, once for each size and time of change of the file.
    private func copy(_ fd: Int32, named path: String) throws -> String {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw PluginFailure.io("cannot be read", at: path) }
        let stamp = "\(path)|\(status.st_size)|\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in stamp.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let extension_ = (path as NSString).pathExtension
        let name = String(format: "track-%016llx", hash) + (extension_.isEmpty ? "" : "." + extension_)
        let folder = (cache as NSString).appendingPathComponent("companions")
        let destination = (folder as NSString).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: destination) { return destination }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let partial = destination + ".part"
        let out = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw PluginFailure.io("cannot be copied into the plugin's cache", at: path) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = pread(fd, &buffer, buffer.count, offset)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                close(out)
                unlink(partial)
                throw PluginFailure.io("cannot be read", at: path)
            }
            if count == 0 { break }
            guard write(out, buffer, count) == count else {
                close(out)
                unlink(partial)
                throw PluginFailure.io("cannot be copied into the plugin's cache (is it full?)", at: path)
            }
            offset += off_t(count)
        }
        close(out)
        guard rename(partial, destination) == 0 else {
            unlink(partial)
            throw PluginFailure.io("cannot be copied into the plugin's cache", at: path)
        }
        return destination
    }
}
