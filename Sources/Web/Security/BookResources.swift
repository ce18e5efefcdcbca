import Foundation

/// Book resources (a chapter, its images and styles) for the reader, read-only under
/// `/book/TOKEN/NAME/PATH`: TOKEN is new at every launch and given only to a browser with a session
/// (`/api/session`), so the path cannot be guessed; it needs no cookie (a sandboxed frame sends none), and its
/// Content-Security-Policy sandboxes each page into an opaque origin that can neither read the app's cookie
/// nor pass the API's Origin check.
/// Unchecked Sendable: the providers are read and written under `lock`; the prefix is constant.
public final class BookResources: @unchecked Sendable {
    public typealias Provider = @Sendable (_ path: String) throws -> WebResponse

    /// `/book/TOKEN`, this launch's path for book resources.
    public let prefix = "/book/" + RandomToken.make()
    private let lock = NSLock()
    private var providers: [String: Provider] = [:]

    /// Serves `NAME/PATH` from `provider`, e.g. `mount("shelf")` for the books on the shelf.
    public func mount(_ name: String, _ provider: @escaping Provider) {
        lock.withLock { providers[name] = provider }
    }

    /// The address of one resource, for the API to hand to the reader.
    public func url(_ name: String, _ path: String) -> String {
        "\(prefix)/\(name)/" + path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")
    }

    func install(in router: WebRouter) {
        router.add("GET", "\(prefix)/{name}/{path...}", access: .bookResource) { [unowned self] request in
            let name = request.parameters["name"] ?? ""
            let path = request.parameters["path"] ?? ""
            guard let provider = lock.withLock({ providers[name] }) else { throw WebError(404, "No books are served under \(name)") }
            guard !path.split(separator: "/").contains("..") else { throw WebError(404, "No such resource") }
            return try provider(path)
        }
    }
}
