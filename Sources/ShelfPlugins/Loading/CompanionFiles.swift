import Foundation
import Glibc
import PluginAPI
import ShelfCore
import ShelfValues

/// The companion files service (files.h, "shelf.host.files/1"): a plugin opening a book made of several files asks
/// for each of the others by a path relative to the book's folder, and gets a descriptor when the file is the
/// book's business. A confined plugin reads nothing else of that folder itself (shelf-plugin(7)), so this is where
/// the line is drawn: inside the book's folder, nothing hidden, a regular file, none of shelf's own.
enum CompanionFiles {
    /// The folders and files no plugin is handed, whatever the book's folder: shelf's configuration (the
    /// credentials), its library database, and the plugins' own folders (another plugin's data).
    struct Forbidden: Sendable {
        let folders: [String]
        let databaseFolder: String?

        init(directories: ShelfDirectories?) {
            guard let directories else { folders = []; databaseFolder = nil; return }
            let real = { (url: URL) in PluginSearchPath.realPath(url.path) ?? url.standardizedFileURL.path }
            folders = [
                real(directories.config), real(directories.data.appendingPathComponent("plugins")),
                real(directories.cache.appendingPathComponent("plugins"))
            ]
            databaseFolder = real(directories.data)
        }

        func refuses(_ path: String) -> Bool {
            if folders.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return true }
            let name = (path as NSString).lastPathComponent
            return (path as NSString).deletingLastPathComponent == databaseFolder && name.contains(".sqlite")
        }
    }

    struct Refusal: Error {
        let message: String
    }

    /// Opens `relative` beside `book` for reading: the descriptor, or why not (one line naming the file).
    static func open(book: String, relative: String, forbidden: Forbidden) -> Result<Int32, Refusal> {
        func refused(_ why: String) -> Result<Int32, Refusal> {
            .failure(Refusal(message: "the companion file \(relative) of \(book) \(why)"))
        }
        guard !relative.isEmpty, !relative.hasPrefix("/") else {
            return refused("is not a path relative to the book's folder")
        }
        let parts = relative.split(separator: "/")
        guard !parts.contains(where: { $0.hasPrefix(".") }) else {
            return refused("leaves the book's folder or names a hidden file")
        }
        let absoluteBook = book.hasPrefix("/") ? book : FileManager.default.currentDirectoryPath + "/" + book
        guard let folder = PluginSearchPath.realPath((absoluteBook as NSString).deletingLastPathComponent) else {
            return refused("cannot be found: the book's folder is gone")
        }
        guard let resolved = PluginSearchPath.realPath(folder + "/" + relative) else {
            return refused("does not exist")
        }
        guard resolved.hasPrefix(folder + "/"),
            !resolved.dropFirst(folder.count + 1).split(separator: "/").contains(where: { $0.hasPrefix(".") })
        else {
            return refused("leads outside the book's folder")
        }
        guard !forbidden.refuses(resolved) else { return refused("is one of shelf's own files") }
        let fd = Glibc.open(resolved, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return refused("cannot be opened (\(String(cString: strerror(errno))))") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return refused("is not a regular file")
        }
        return .success(fd)
    }

    /// The vtable an in-process plugin gets from `get_service`; an out-of-process one reaches `open` through
    /// ChildServices, and gets its descriptor over the channel.
    nonisolated(unsafe) static let table: UnsafeMutablePointer<shelf_host_files_v1> = {
        let t = UnsafeMutablePointer<shelf_host_files_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_host_files_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_host_files_v1>.size)
        t.pointee.open_companion = { host, book, relative, fd, err in
            guard let host, let book, let relative, let fd else { return SHELF_E_INVALID_ARGUMENT }
            fd.pointee = -1
            switch open(
                book: String(cString: book), relative: String(cString: relative),
                forbidden: HostServices.forbidden(of: host))
            {
            case .success(let opened):
                fd.pointee = opened
                return SHELF_OK
            case .failure(let error):
                if let err {
                    RemoteTables.fill(
                        err, status: SHELF_E_IO, message: error.message, location: String(cString: relative))
                }
                return SHELF_E_IO
            }
        }
        return t
    }()
}
