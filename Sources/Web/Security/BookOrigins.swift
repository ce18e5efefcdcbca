import Foundation
import Host

/// Each book read in the browser has an origin of its own, `http://bHASH.localhost:PORT` (HASH: 16 hex digits of the
/// book's id, so the same book has the same origin at every launch on the same port, and its `localStorage` is
/// kept). A book origin serves that book's resources and the reader's own scripts (`/.shelf/reader/…`), nothing
/// else: no API, no other book, no page of the app. The reader's script (`web/js/reader/in-book.js`) is put at the
/// head of each page with a nonce, and is the only script that runs, unless the patron let this book run its own
/// (`allowScripts`) and the page is one the book declares scripted (`properties.contains` "js" in its manifest).
///
/// With `--listen` (another machine, which cannot resolve `*.localhost`) the reader takes the book's pages from
/// `BookResources` instead, sandboxed into an opaque origin: the reader's script runs there, a book's never.
/// Unchecked Sendable: the books, the answers about scripts and the provider are read and written under `lock`;
/// the rest is constant.
public final class BookOrigins: @unchecked Sendable {
    /// A resource of a book: its bytes and type, and whether the book declares it scripted.
    public struct Resource: Sendable {
        public let data: Data
        public let type: String
        public let scripted: Bool
        public init(data: Data, type: String, scripted: Bool) {
            self.data = data
            self.type = type
            self.scripted = scripted
        }
    }
    public typealias Provider = @Sendable (_ id: String, _ href: String) throws -> Resource

    private let lock = NSLock()
    private var books: [String: String] = [:]
    private var scripted: Set<String> = []
    private var provider: Provider?
    private let webRoot: URL

    /// The reader's scripts are cached by the browser under a folder named by their content, so each chapter does
    /// not fetch them again, and a new version of shelf is a new folder.
    public let scriptVersion: String

    init(webRoot: URL) {
        self.webRoot = webRoot.standardizedFileURL
        let folder = webRoot.appendingPathComponent("js/reader")
        // A folder that cannot be listed serves no script either: its version is that of nothing.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        var content = Data()
        for name in names {
            content.append(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data())
        }
        scriptVersion = Self.label(for: String(decoding: content, as: UTF8.self))
    }

    /// Where the reader finds a book's resources (the reader module sets it).
    public func serve(_ provider: @escaping Provider) { lock.withLock { self.provider = provider } }

    /// The host name of a book: `b` and 16 hex digits of FNV-1a of its id (a DNS label, and stable).
    public static func label(for id: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "b" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The origin of a book, known from now on to this server (a browser reaches it after `/api/reader`).
    public func origin(for id: String, port: UInt16) -> String {
        let label = Self.label(for: id)
        lock.withLock { books[label] = id }
        return "http://\(label).localhost:\(port)"
    }

    /// The book whose origin `host` (a Host header) names on `port`, if any.
    public func book(forHost host: String?, port: UInt16) -> String? {
        guard let host = host?.lowercased(), host.hasSuffix(".localhost:\(port)") else { return nil }
        let label = String(host.dropLast(".localhost:\(port)".count))
        return lock.withLock { books[label] }
    }

    /// Whether the patron let a book run its own scripts (the app says so at each opening, from its own storage).
    public func allowScripts(_ allowed: Bool, for id: String) {
        lock.withLock { if allowed { scripted.insert(id) } else { scripted.remove(id) } }
    }

    public func scriptsAllowed(for id: String) -> Bool { lock.withLock { scripted.contains(id) } }

    /// The answer of a book's origin to `request`.
    func respond(to request: WebRequest, book id: String, appOrigins: Set<String>) -> WebResponse {
        var response: WebResponse
        let nonce = RandomToken.make()
        var scripts = false
        do {
            guard ["GET", "HEAD"].contains(request.method) else {
                throw WebError(405, SecurityRefusal.bookOriginReadOnly(method: request.method))
            }
            let path = String(request.path.drop { $0 == "/" })
            guard !path.split(separator: "/").contains("..") else {
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            }
            if path.hasPrefix(Self.readerFolder + scriptVersion + "/") {
                response = try Self.readerScript(
                    Self.readerFolder + path.dropFirst(Self.readerFolder.count + scriptVersion.count + 1),
                    webRoot: webRoot)
                response.headers += SecurityHeaders.bookOriginHeaders(
                    nonce: nonce, bookScripts: false, appOrigins: appOrigins, cache: true)
                return response
            } else {
                guard let provider = lock.withLock({ self.provider }) else {
                    throw WebError(404, RequestProblem.nothingAt(path: request.path))
                }
                let resource = try provider(id, path)
                scripts = resource.scripted && scriptsAllowed(for: id)
                response = WebResponse(
                    status: 200, contentType: resource.type,
                    body: Self.withReaderScript(
                        resource.data, type: resource.type, nonce: nonce,
                        folder: "/\(Self.readerFolder)\(scriptVersion)/"))
            }
        } catch let error as WebError {
            response = error.response
        } catch {
            response = WebError(500, RequestProblem.failed(detail: "\(error)")).response
        }
        if request.method == "HEAD" { response.body = .bytes(Data()) }
        response.headers += SecurityHeaders.bookOriginHeaders(
            nonce: nonce, bookScripts: scripts, appOrigins: appOrigins)
        return response
    }

    /// The reader's scripts on a book's origin: `/.shelf/reader/NAME.js`, from `web/js/reader/`.
    static let readerFolder = ".shelf/reader/"

    static func readerScript(_ path: String, webRoot: URL) throws -> WebResponse {
        let name = String(path.dropFirst(readerFolder.count))
        guard name.hasSuffix(".js"), !name.contains("/"), !name.hasPrefix(".") else {
            throw WebError(404, RequestProblem.nothingAt(path: "/" + path))
        }
        guard let data = FileManager.default.contents(atPath: webRoot.appendingPathComponent("js/reader/" + name).path)
        else {
            throw WebError(404, RequestProblem.nothingAt(path: "/" + path))
        }
        return WebResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: data)
    }

    /// A page of the book with the reader's script first in its head (or after its root's start tag). Other
    /// resources, and pages with neither (an SVG page), are left as they are. `crossorigin`: in an opaque origin
    /// (`BookResources`) the script comes from the app's host, which lets any origin read it (CORS) but lends
    /// nothing to other origins otherwise (`Cross-Origin-Resource-Policy`).
    static func withReaderScript(_ data: Data, type: String, nonce: String, folder: String = "/" + readerFolder) -> Data
    {
        guard type.contains("html") else { return data }
        let tag = Data(
            "<script nonce=\"\(nonce)\" crossorigin=\"anonymous\" src=\"\(folder)in-book-start.js\"></script>".utf8)
        for name in ["<head", "<html"] {
            guard let start = range(of: name, in: data),
                let close = data[start.upperBound...].firstIndex(of: UInt8(ascii: ">"))
            else { continue }
            // `<header` is not `<head`: the name must end there.
            let next = data[start.upperBound]
            guard
                next == UInt8(ascii: ">") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\n")
                    || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r")
            else { continue }
            var page = data
            page.insert(contentsOf: tag, at: close + 1)
            return page
        }
        return data
    }

    /// The first `<name` in `data`, in any case.
    private static func range(of name: String, in data: Data) -> Range<Data.Index>? {
        let lower = Array(name.utf8), count = lower.count
        guard data.count >= count else { return nil }
        var index = data.startIndex
        while index + count <= data.endIndex {
            var matches = true
            for offset in 0..<count where data[index + offset] | 0x20 != lower[offset] | 0x20 {
                matches = false
                break
            }
            if matches { return index..<(index + count) }
            index += 1
        }
        return nil
    }
}
