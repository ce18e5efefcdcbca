import Foundation
import Host

/// Book resources (a chapter, its images and styles, a cover) read-only under `/book/TOKEN/NAME/PATH`: TOKEN is new
/// at every launch and given only to a browser with a session (`/api/session`), so the path cannot be guessed; it
/// needs no session, and its Content-Security-Policy sandboxes each page into an opaque origin that can neither
/// read the app's storage nor pass the API's Origin check. The reader reads from here with `--listen` (a book's
/// own origin, `BookOrigins`, is a `localhost` name another machine cannot resolve): its pages carry the
/// reader's script, the only one that runs.
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
        "\(prefix)/\(name)/"
            + path.split(separator: "/").map {
                $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
            }.joined(separator: "/")
    }

    func install(in router: WebRouter) {
        router.add("GET", "\(prefix)/{name}/{path...}", access: .bookResource) { [unowned self] request in
            let name = request.parameters["name"] ?? ""
            let path = request.parameters["path"] ?? ""
            guard let provider = lock.withLock({ providers[name] }) else {
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            }
            guard !path.split(separator: "/").contains("..") else {
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            }
            var response = try provider(path)
            if case .bytes(let data) = response.body {
                let type = response.headers.first { $0.0.lowercased() == "content-type" }?.1 ?? ""
                // A book's audio (a media overlay's narration) is played by the app's audio element, which asks
                // for parts of it to start a phrase anywhere (RFC 9110 Range, as audiobook tracks are served).
                if type.hasPrefix("audio/") || type.hasPrefix("video/") {
                    return RangeResponse.part(of: data, type: type, range: request.header("range"))
                }
                response.body = .bytes(
                    BookOrigins.withReaderScript(data, type: type, nonce: SecurityHeaders.launchNonce))
            }
            return response
        }
    }
}
