internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
internal import ShelfPlayback
internal import ShelfPlugins
import Foundation

/// The host as one object, and where every front end starts: where shelf keeps its files, the plugins it found
/// and the router, and the sessions a patron works in: `library()` (accounts, catalogs, circulation, sync,
/// reading lists), `bookshelf()` and `reader()` (books on the shelf, reading), `listen(_:)` (audiobooks), and
/// `events` for what happens meanwhile. The command line and the browser app only call these.
///
/// Safe from several threads: the environment, folders and search path never change after `init`, the plugin
/// registry is made once under `lock`, and each session says how it is safe itself.
public final class Shelf: @unchecked Sendable {
    public let environment: [String: String]
    public let directories: ShelfDirectories?
    let searchPath: PluginSearchPath
    /// What happens in the host that a front end may show at once (sync results, notifications, listening).
    public let events = ShelfEvents()

    private let lock = NSLock()
    private var loadedRegistry: PluginRegistry?

    /// `environment` nil: the process's, read once.
    public init(pluginPaths: [String] = [], environment: [String: String]? = nil) {
        let environment = environment ?? ProcessEnvironment.shared
        self.environment = environment
        // Without HOME or SHELF_HOME there are no folders: commands that need them say so when they are called.
        self.directories = try? ShelfDirectories(environment: environment)
        self.searchPath = .standard(explicit: pluginPaths, environment: environment)
    }

    /// The plugins on the search path, found on first use.
    var registry: PluginRegistry {
        lock.withLock {
            if let loadedRegistry { return loadedRegistry }
            let registry = PluginRegistry(searchPath: searchPath, directories: directories, environment: environment)
            loadedRegistry = registry
            return registry
        }
    }

    /// Routes a file to the format plugin that opens it.
    var router: FormatRouter {
        FormatRouter(
            registry: registry, memoFolder: directories?.cache.appendingPathComponent("publications", isDirectory: true)
        )
    }

    /// Sniffs, routes and opens a local file (see `FormatRouter.open` for `preferring`). Internal: a publication is
    /// the plugins subsystem's behaviour, and front ends read a file through `openFile` (`BookFile`).
    func open(_ path: String, preferring pluginID: String? = nil) throws -> Publication {
        try router.open(path: path, preferring: pluginID)
    }

    // MARK: The network

    /// A new HTTP client for catalogs, sign-in and circulation, with the limits this Shelf's environment sets
    /// (SHELF_HTTP_TIMEOUT, SHELF_HTTP_RETRIES, SHELF_DEADLINE).
    func catalogHTTP() -> HTTPClient { HTTPClient(configuration: CatalogClient.configuration(in: environment)) }

    // MARK: Files

    /// Where shelf keeps its files; without HOME or SHELF_HOME, the error that says how to tell it.
    public func requireDirectories() throws -> ShelfDirectories {
        guard let directories else {
            throw ShelfError(.usage, "shelf cannot tell where to keep its files", hint: "Set HOME, or SHELF_HOME=DIR.")
        }
        return directories
    }

    /// A folder of its own in shelf's cache (`cache/NAME`, made private when missing), for what a front end keeps
    /// between requests (serve's extracted tracks).
    public func cacheFolder(_ name: String) throws -> URL {
        let folder = try requireDirectories().cache.appendingPathComponent(name, isDirectory: true)
        try ShelfDirectories.createDirectory(atPath: folder.path)
        return folder
    }

    /// Writes `data` as the whole file the patron named (`shelf cover -o PATH`), as a shell's `>` writes: through a
    /// link, never over a folder or a device (see OutputFile).
    public static func writeOutputFile(_ data: Data, to path: String) throws {
        try OutputFile.write(data, to: path)
    }

    /// Titles on the shelf or account names, one line each and each once, for shell completion: read only, nothing
    /// created (an empty list when shelf has no database yet), no plugin loaded.
    public func completionWords(books: Bool) throws -> [String] {
        guard let directories, FileManager.default.fileExists(atPath: directories.databaseFile.path) else { return [] }
        let database = try LibraryDatabase(directories: directories)
        let words = books ? try database.shelfBooks().map(\.book.title) : try database.accounts().map(\.id)
        var seen = Set<String>()
        return words.map(DisplayText.oneLine).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// A connection of its own to the library database, made with its folder when missing. Each session keeps
    /// one, which its callers' threads may share (the connection locks each call and each transaction); `losing`
    /// says what the patron cannot have without it.
    func openDatabase(losing: String? = nil) throws -> LibraryDatabase {
        let directories = try requireDirectories()
        do {
            try directories.createData()
            return try LibraryDatabase(directories: directories)
        } catch {
            throw ShelfError(
                .ioError, "the library database cannot be opened" + (losing.map { ", so \($0)" } ?? "") + " (\(error))",
                subject: directories.databaseFile.path,
                hint: "Check that shelf's data folder exists and that you may write there.")
        }
    }

    // MARK: Sessions

    /// The patron's libraries: accounts, catalogs, circulation, sync, reading lists and the wish list.
    public func library() throws -> LibrarySession { try LibrarySession(shelf: self) }

    /// The bookshelf: books added from files or downloaded from a library.
    public func bookshelf() throws -> Bookshelf {
        Bookshelf(
            ShelfReader.Bookshelf(
                directories: try requireDirectories(), database: try openDatabase(), router: { self.router }))
    }

    /// Reading books on the shelf: pages, moves, bookmarks, sharing, the position saved as it goes.
    public func reader() throws -> BookReader { BookReader(bookshelf: try bookshelf()) }

    /// An audiobook to listen to (a file, a downloaded loan's catalog ID, or a remote manifest).
    public func listen(_ target: String, options: ListeningOptions = ListeningOptions()) throws -> ListeningSession {
        try ListeningSession(
            shelf: self, target: target, options: options.engineOptions, chapter: options.chapter,
            narration: options.narration ? .play(skipping: options.skipSkippable) : .ignore,
            fromBookStart: options.startsAtTime)
    }

    /// The remote audiobooks being downloaded, and each part's state.
    public func audiobookDownloads() throws -> AudiobookDownloads { try AudiobookDownloads(shelf: self) }
}
