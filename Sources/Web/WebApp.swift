import Foundation

/// One area of the app's server: its API routes, its event kinds, its pages. The library, the reader and the
/// player each install themselves here, in files of their own; `WebApp.modules` lists them.
public protocol WebModule {
    static func install(in app: WebApp)
}

/// `shelf serve`: the server, its security, the event stream and the modules' routes, over one host adapter.
public final class WebApp: @unchecked Sendable {
    /// Every area of the app. Add a line here for a new one.
    static let modules: [WebModule.Type] = [SessionRoutes.self, LibraryAPI.self, ReaderAPI.self, PlayerAPI.self, StaticFiles.self]

    public struct Configuration: Sendable {
        /// The address to listen on: 127.0.0.1 unless `--listen` named another (which needs `password`).
        public var address = "127.0.0.1"
        public var port: UInt16 = 0
        public var password: String?
        /// The folder holding index.html, css/, js/ and openapi/ (see `StaticFiles.findRoot`).
        public var webRoot: URL
        /// What the API calls to do a patron's work.
        public var host: HostAdapter
        /// How often the library is synced on its own (loans, holds, notifications); nil: only when asked.
        public var syncInterval: TimeInterval? = 15 * 60

        public init(webRoot: URL, host: HostAdapter) {
            self.webRoot = webRoot
            self.host = host
        }
    }

    public let configuration: Configuration
    public let router = WebRouter()
    public let events = EventHub()
    public let guardian: RequestGuard
    public let bookResources: BookResources
    public var host: HostAdapter { configuration.host }
    private var daemon: HTTPDaemon?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        guardian = RequestGuard(password: configuration.password)
        bookResources = BookResources()
        bookResources.install(in: router)
        for module in Self.modules { module.install(in: self) }
    }

    /// Starts listening; returns the port.
    @discardableResult
    public func start() throws -> UInt16 {
        let daemon = try HTTPDaemon(address: configuration.address, port: configuration.port) { [unowned self] in respond(to: $0) }
        self.daemon = daemon
        guardian.allow(port: daemon.port, listen: configuration.address == "127.0.0.1" ? nil : configuration.address)
        return daemon.port
    }

    public var port: UInt16 { daemon?.port ?? 0 }

    /// The address a browser opens: with the launch key, which the server exchanges for a cookie.
    public func launchURL(file: String? = nil) -> String {
        var url = "http://127.0.0.1:\(port)/open?key=\(guardian.secret)"
        if let file, let encoded = file.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { url += "&file=\(encoded)" }
        return url
    }

    public func stop() {
        events.close()
        daemon?.stop()
        daemon = nil
    }

    /// Routes a request after the guard has let it through; every answer gets the security headers.
    func respond(to incoming: WebRequest) -> WebResponse {
        var request = incoming
        var access = WebRouter.Access.page
        var response: WebResponse
        do {
            switch router.match(request.method, request.path) {
            case .none:
                try guardian.check(request, access: .page)
                throw WebError(404, "Nothing is at \(request.path)")
            case .wrongMethod(let allowed):
                try guardian.check(request, access: .page)
                var refusal = WebError(405, "\(request.path) does not take \(request.method)").response
                refusal.headers.append(("Allow", allowed.joined(separator: ", ")))
                response = refusal
                response.headers += SecurityHeaders.headers(for: .page)
                return response
            case .found(let route, let parameters):
                access = route.access
                try guardian.check(request, access: route.access)
                request.parameters = parameters
                response = try route.handler(request)
            }
        } catch let error as WebError {
            response = error.response
        } catch let error as HostFailure {
            response = error.webError.response
        } catch {
            response = WebError(500, "\(error)").response
        }
        if request.method == "HEAD", case .bytes = response.body { response.body = .bytes(Data()) }
        response.headers += SecurityHeaders.headers(for: access)
        return response
    }
}
