import Foundation
import Host

/// One area of the app's server: its API routes, its event kinds, its pages. The library, the reader and the
/// player each install themselves here, in files of their own; `WebApp.modules` lists them.
public protocol WebModule {
    static func install(in app: WebApp)
}

/// `shelf serve`: the server, its security, the event stream and the modules' routes, over the host's session API
/// called in this process (`shelf`, and the sessions `library()` and `bookshelf()` shared by the request threads):
/// the same calls the command line makes.
public final class WebApp: @unchecked Sendable {
    /// Every area of the app. Add a line here for a new one.
    static var modules: [WebModule.Type] {
        [
            SessionRoutes.self, LibraryAPI.self, ReaderAPI.self, PlayerAPI.self, SpokenAPI.self, NarrationAPI.self,
            OpenFile.self, WordsAPI.self,
            StaticFiles.self
        ]
    }

    public struct Configuration: Sendable {
        /// The address to listen on: 127.0.0.1 unless `--listen` named another (which needs `password`).
        public var address = "127.0.0.1"
        public var port: UInt16 = 0
        public var password: String?
        /// The folder holding index.html, css/, js/ and openapi/ (see `StaticFiles.findRoot`).
        public var webRoot: URL
        /// The environment the host reads (HOME, SHELF_HOME, XDG folders, SHELF_PLUGIN_PATH...).
        public var environment: [String: String]
        /// Plugin files or folders to look in first (`--plugin-path`).
        public var pluginPaths: [String] = []
        /// How often the library is synced on its own (loans, holds, notifications); nil: only when asked.
        public var syncInterval: TimeInterval? = 15 * 60
        /// Seconds a connection may stay silent before it is closed (see `HTTPDaemon`); longer than an event
        /// stream's keep-alive (`EventSubscription.keepAlive`).
        public var idleTimeout: UInt32 = 30
        /// Whether refused API calls are said on standard error (`shelf serve` does; the in-process tests do not).
        public var reportRefusals = false

        public init(webRoot: URL, environment: [String: String]) {
            self.webRoot = webRoot
            self.environment = environment
        }
    }

    public let configuration: Configuration
    public let router = WebRouter()
    public let events = EventHub()
    public let guardian: RequestGuard
    public let bookResources: BookResources
    /// Each book's origin for the reader (`BookOrigins`).
    public let bookOrigins: BookOrigins
    /// The files `shelf serve --open FILE` asked to open (see `OpenFile`).
    public let fileRequests = FileRequests()
    /// The host in this process: one for the server's life.
    public let shelf: Shelf
    private let sessionLock = NSLock()
    private var openLibrary: LibrarySession?
    private var openBookshelf: Bookshelf?
    private var daemon: HTTPDaemon?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        shelf = Shelf(pluginPaths: configuration.pluginPaths, environment: configuration.environment)
        guardian = RequestGuard(password: configuration.password)
        bookResources = BookResources()
        bookOrigins = BookOrigins(webRoot: configuration.webRoot)
        bookResources.install(in: router)
        for module in Self.modules { module.install(in: self) }
    }

    /// The patron's libraries, opened on the first request that needs them and kept: their database connection
    /// is shared by the request threads (it serialises each call). A failed open is tried again next time.
    public func library() throws -> LibrarySession {
        try sessionLock.withLock {
            if let openLibrary { return openLibrary }
            let opened = try shelf.library()
            openLibrary = opened
            return opened
        }
    }

    /// The bookshelf, opened and kept the same way.
    public func bookshelf() throws -> Bookshelf {
        try sessionLock.withLock {
            if let openBookshelf { return openBookshelf }
            let opened = try shelf.bookshelf()
            openBookshelf = opened
            return opened
        }
    }

    /// Starts listening on `port` (by default the configuration's); returns the port.
    @discardableResult
    public func start(port: UInt16? = nil) throws -> UInt16 {
        let daemon = try HTTPDaemon(
            address: configuration.address, port: port ?? configuration.port,
            idleTimeout: configuration.idleTimeout
        ) { [unowned self] in respond(to: $0) }
        self.daemon = daemon
        guardian.allow(port: daemon.port, listen: configuration.address == "127.0.0.1" ? nil : configuration.address)
        return daemon.port
    }

    public var port: UInt16 { daemon?.port ?? 0 }

    /// Whether books get origins of their own: a browser on this machine resolves `*.localhost`; one on another
    /// machine (`--listen`) does not, and reads books from `BookResources`.
    public var booksHaveOrigins: Bool { configuration.address == "127.0.0.1" }

    /// The app's address: `http://shelf.localhost:PORT/`, or the `--listen` address's.
    public var url: String {
        let address = configuration.address
        guard address != "127.0.0.1" else { return "http://\(RequestGuard.appName):\(port)/" }
        return "http://\(address.contains(":") ? "[\(address)]" : address):\(port)/"
    }

    /// The address a browser opens: with a new launch key, which lets one browser in once.
    public func launchURL(file: String? = nil) -> String {
        Self.launchURL(url, key: guardian.mintLaunchKey(), file: file)
    }

    static func launchURL(_ url: String, key: String, file: String?) -> String {
        var launch = "\(url)open?key=\(key)"
        if let file, let encoded = file.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            launch += "&file=\(encoded)"
        }
        return launch
    }

    public func stop() {
        events.close()
        daemon?.stop()
        daemon = nil
    }

    /// A refused API call is said on standard error, so the patron (and the tests) see what a page or a book
    /// tried: one line, the request's own words cut short and shown safely.
    private func report(_ refusal: WebError, of request: WebRequest) {
        guard configuration.reportRefusals, refusal.status == 403 || request.header("origin") != nil else { return }
        let safe = { (text: String?) in
            String(
                (text ?? "-").unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) }.prefix(
                    120))
        }
        let notice = ServerNotice.refused(
            method: safe(request.method), path: safe(request.path),
            from: safe(request.header("origin") ?? request.header("host")), reason: refusal.title)
        FileHandle.standardError.write(Data("shelf serve: \(notice.words(for: .terminal).line)\n".utf8))
    }

    /// Routes a request after the guard has let it through; every answer gets the security headers.
    func respond(to incoming: WebRequest) -> WebResponse {
        // A book's origin answers with that book alone (`BookOrigins`), before any route of the app.
        if let book = bookOrigins.book(forHost: incoming.header("host"), port: port) {
            return bookOrigins.respond(to: incoming, book: book, appOrigins: guardian.allowedOrigins)
        }
        var request = incoming
        var access = WebRouter.Access.page
        var response: WebResponse
        do {
            switch router.match(request.method, request.path) {
            case .none:
                try guardian.check(request, access: .page)
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            case .wrongMethod(let allowed):
                try guardian.check(request, access: .page)
                var refusal = WebError(405, RequestProblem.methodNotAllowed(path: request.path, method: request.method))
                    .response
                refusal.headers.append(("Allow", allowed.joined(separator: ", ")))
                response = refusal
                response.headers += SecurityHeaders.headers(for: .page)
                return response
            case .found(let route, let parameters):
                access = route.access
                do { try guardian.check(request, access: route.access) } catch let refusal as WebError {
                    report(refusal, of: request)
                    throw refusal
                }
                request.parameters = parameters
                response = try route.handler(request)
            }
        } catch let error as WebError {
            response = error.response
        } catch let error as ShelfError {
            response = WebError(error).response
        } catch {
            response = WebError(500, RequestProblem.failed(detail: "\(error)")).response
        }
        if request.method == "HEAD", case .bytes = response.body { response.body = .bytes(Data()) }
        response.headers += SecurityHeaders.headers(for: access)
        return response
    }
}
