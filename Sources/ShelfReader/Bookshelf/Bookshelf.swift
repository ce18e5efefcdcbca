import ShelfLibrary
import ShelfCore
import ShelfPlugins
import ShelfValues
import Foundation
import Readium
#if canImport(Glibc)
    import Glibc
#endif

/// The patron's bookshelf: books added from files or downloaded from a library, opened where they were left.
public final class Bookshelf {
    public let directories: ShelfDirectories
    public let database: LibraryDatabase
    /// The facade's router, asked for when a book is opened (its registry loads the plugins on first use).
    private let router: () -> FormatRouter

    public init(directories: ShelfDirectories, database: LibraryDatabase, router: @escaping () -> FormatRouter) {
        self.directories = directories
        self.database = database
        self.router = router
    }

    /// Sniffs, routes and opens a local file (see `FormatRouter.open` for `preferring`).
    private func openPath(_ path: String, preferring pluginID: String? = nil) throws -> Publication {
        try router().open(path: path, preferring: pluginID)
    }

    /// Where `shelf add` copies books: `data/books`.
    public var booksFolder: URL { directories.data.appendingPathComponent("books", isDirectory: true) }
    /// Where `shelf sample` keeps samples: `data/samples`.
    public var samplesFolder: URL { directories.data.appendingPathComponent("samples", isDirectory: true) }

    // MARK: Finding

    /// The book `text` names (BookReference): at once for reading; for a change, exactly or once `confirm` agrees.
    public func find(_ text: String, for purpose: BookReference.Purpose = .read, confirm: ((ShelfBook) -> Bool)? = nil)
        throws -> ShelfBook
    {
        try BookReference.find(text, in: database, for: purpose, confirm: confirm)
    }

    /// The path of the book's file; a book with none here yet (a loan not downloaded) is refused, saying how to get it.
    public static func file(of book: ShelfBook) throws -> String {
        guard let path = book.book.path else {
            throw ShelfError(
                .noInput, "\(book.book.title) has no file on this computer yet", subject: book.book.id,
                next: NextStep(
                    terminal: "Download it first: `shelf download ID`.", browser: "Download it first from My Books."))
        }
        return path
    }

    /// Opens the book's file with the plugin that handles it.
    public func open(_ book: ShelfBook) throws -> Publication {
        let path = try Self.file(of: book)
        guard FileManager.default.fileExists(atPath: path) else {
            let hint =
                book.storage == .link
                ? "It was added with --link and the file has moved or gone: add it again from where it is now."
                : "Add it again (`shelf add FILE`) or download it again."
            throw ShelfError(.noInput, "the file of \(book.book.title) is missing", subject: path, hint: hint)
        }
        BookWarnings.watch(path: path, bookID: book.book.id, database: database)
        do {
            return try openPath(path, preferring: book.book.pluginID)
        } catch var error as ShelfError where error.kind == .badData && error.hint == nil {
            // A book that opened when it was put on the shelf and no longer does: its file was damaged or cut short
            // since (a disk, a copy that stopped). The way back is a good copy, which takes this one's place.
            error.next = Self.freshCopyHint(book, path: path)
            throw error
        }
    }

    /// How to put a good copy of a damaged book's file back, as the book came onto the shelf.
    static func freshCopyHint(_ book: ShelfBook, path: String) -> NextStep {
        switch book.storage {
        case .download, .sample:
            let name = book.loanEntryID ?? "\"\(book.book.title)\""
            return NextStep(
                terminal:
                    "Its file is damaged or cut short: download it again (`shelf \(book.storage == .sample ? "sample" : "download") \(name)`).",
                browser: "Its file is damaged or cut short: download it again.")
        case .copy:
            return NextStep(
                terminal:
                    "Its file on the shelf is damaged or cut short: add a good copy with `shelf add FILE`; it takes this one's place.",
                browser: "Its file on the shelf is damaged or cut short: add a good copy; it takes this one's place.")
        case .link:
            return NextStep(
                terminal:
                    "The file it was added from (--link) is damaged or cut short: put a good copy at \(path), or add one with `shelf add FILE`.",
                browser: "The file it was added from is damaged or cut short: put a good copy at \(path).")
        }
    }

    // MARK: Adding

    public typealias Added = AddedBook

    /// Puts a file on the shelf: opened first (only a book a plugin opens is added), then copied into the data folder
    /// (or, with `link` or for a manifest whose tracks are beside it, kept where it is). A book with the same
    /// identifier replaces the earlier edition.
    public func add(
        path: String, link: Bool = false, storage forced: BookStorage? = nil, isSample: Bool = false,
        catalogLink: String? = nil, id forcedID: String? = nil
    ) throws -> Added {
        let source = BookReference.absolutePath(path)
        BookWarnings.watch(path: source, bookID: nil, database: database)
        let publication: Publication
        do {
            publication = try openPath(source)
        } catch var error as ShelfError where error.kind == .badData && error.hint == nil {
            // Nothing was added; the file itself is the trouble, most often a copy or download that stopped early.
            error.hint =
                "Nothing was added. The file is damaged or cut short (a download or copy that stopped early?): "
                + "get a good copy and add that."
            throw error
        }
        let manifest = publication.manifest
        let id = try forcedID ?? Self.bookID(manifest: manifest, path: source)
        defer { BookWarnings.added(path: source, bookID: id, database: database) }
        let existing = try database.shelfBook(id: id)
        if let existing, let reason = Self.unreadable(publication), let old = existing.book.path,
            // A probe: a kept copy that no longer opens is no readable copy to keep, and the new one takes its place.
            let kept = try? openPath(old, preferring: existing.book.pluginID), Self.unreadable(kept) == nil
        {
            // Never trade a copy the patron can read for one they cannot (a DRM-protected edition with the same
            // identifier): the shelf keeps one file per book, so this one is refused.
            throw ShelfError(
                .badData,
                "this copy of “\(existing.book.title)” cannot be read (\(reason)); the readable copy on your shelf was kept",
                subject: source,
                next: NextStep(
                    terminal:
                        "To put this copy in its place anyway, remove the book first (`shelf remove ID`, with the id `shelf books --json` lists).",
                    browser: nil))
        }
        let storage = forced ?? (link || Self.refersToFilesBeside(publication) ? .link : .copy)
        var storedPath = source
        if storage != .link {
            let folder = storage == .sample ? samplesFolder : booksFolder
            storedPath = try copyIntoShelf(source, folder: folder, id: id)
        }
        let title = manifest.title.flatMap { $0.isEmpty ? nil : $0 } ?? (source as NSString).lastPathComponent
        let record = BookRecord(
            id: id, path: storedPath,
            sourceURI: existing?.book.sourceURI.flatMap { $0.hasPrefix("http") ? $0 : nil } ?? source,
            mediaType: publication.input.mediaType ?? "application/octet-stream",
            pluginID: publication.plugin.descriptor.id, title: title, authors: manifest.authors,
            addedAt: existing?.book.addedAt ?? Date(), openedAt: existing?.book.openedAt)
        try database.putOnShelf(record, storage: storage, isSample: isSample, link: catalogLink)
        if let identity = BookIdentity.of(publication, path: storedPath) {
            try database.saveIdentity(identity, bookID: id)
        }
        // The earlier edition's copy goes once the new one is recorded.
        if let old = existing?.book.path, old != storedPath, isShelfCopy(old) { unlink(old) }
        guard let added = try database.shelfBook(id: id) else {
            throw ShelfError(.software, "the book was recorded but cannot be read back", subject: id)
        }
        return Added(book: added, replacedEdition: existing != nil)
    }

    /// True for a manifest (an audiobook's `.json`): it names its tracks as files beside it, so a copy of it alone
    /// would play nothing. It stays where it is, as with `--link`.
    static func refersToFilesBeside(_ publication: Publication) -> Bool {
        (publication.input.mediaType ?? "").lowercased().hasSuffix("json")
    }

    /// Why an eBook cannot be read (its opening page does not render: DRM, a damaged file), or nil when it can.
    /// An audiobook is not rendered here: it is played.
    static func unreadable(_ publication: Publication) -> String? {
        guard publication.format != .audiobook else { return nil }
        do {
            _ = try publication.render(at: nil, settings: "{\"as\":\"text\",\"width\":72}")
            return nil
        } catch let error as ShelfError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// The library id of a book: its publication identifier, or a hash of the file when it has none.
    static func bookID(manifest: Manifest, path: String) throws -> String {
        if let identifier = manifest.metadata["identifier"]?.string?.trimmingCharacters(in: .whitespacesAndNewlines),
            !identifier.isEmpty, identifier.count <= 512
        {
            return identifier
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ShelfError(.permission, "cannot be read", subject: path)
        }
        // Only read: closing cannot lose anything.
        defer { try? handle.close() }
        var hash: UInt64 = 0xcbf29ce484222325
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        }
        return "file:" + String(hash, radix: 16)
    }

    /// Copies `source` into `folder` under a name made from the id, atomically: a temporary file, synced, renamed.
    private func copyIntoShelf(_ source: String, folder: URL, id: String) throws -> String {
        do {
            try ShelfDirectories.createDirectory(atPath: folder.path)
        } catch {
            throw ShelfError(.ioError, "cannot create the shelf's folder (\(error))", subject: folder.path)
        }
        var ext = (source as NSString).pathExtension.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        if ext.isEmpty || ext.count > 10 { ext = "book" }
        let destination = folder.appendingPathComponent(ShelfDirectoriesSafeName.fileName(for: id) + "." + ext).path
        if BookReference.absolutePath(destination) == source { return destination }
        let temporary = destination + ".part-\(getpid())"
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ShelfError(.permission, "cannot be read", subject: source) }
        defer { close(input) }
        let output = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw ShelfError(
                .ioError, "cannot write into the shelf's folder (\(String(cString: strerror(errno))))",
                subject: temporary)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var failed = false
        while true {
            let count = read(input, &buffer, buffer.count)
            if count == 0 { break }
            if count < 0 { if errno == EINTR { continue }; failed = true; break }
            var written = 0
            while written < count {
                let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if n < 0 { if errno == EINTR { continue }; failed = true; break }
                written += n
            }
            if failed { break }
        }
        if !failed && fsync(output) != 0 { failed = true }
        close(output)
        guard !failed, rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ShelfError(.ioError, "cannot copy the book into the shelf (\(reason))", subject: source)
        }
        return destination
    }

    /// True for files shelf itself copied (under data/books or data/samples): only those are ever deleted.
    func isShelfCopy(_ path: String) -> Bool {
        let standard = (path as NSString).standardizingPath
        return [booksFolder.path, samplesFolder.path].contains {
            standard.hasPrefix(($0 as NSString).standardizingPath + "/")
        }
    }

    // MARK: Removing

    public typealias Removed = RemovedBook

    /// Takes the book off the shelf with its position and bookmarks; deletes shelf's own copy of the file (a linked
    /// file or a download outside shelf's folders stays).
    public func remove(_ book: ShelfBook) throws -> Removed {
        try database.removeFromShelf(id: book.book.id)
        var deleted: String?
        if let path = book.book.path, isShelfCopy(path) || isDownload(path), unlink(path) == 0 { deleted = path }
        return Removed(book: book, deletedFile: deleted)
    }

    private func isDownload(_ path: String) -> Bool {
        let downloads = (directories.data.appendingPathComponent("downloads").path as NSString).standardizingPath + "/"
        return (path as NSString).standardizingPath.hasPrefix(downloads)
    }
}
