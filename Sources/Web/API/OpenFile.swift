import Foundation
import Host

/// `shelf serve --open FILE`: the file the launch address named, opened where it is read or heard. The address
/// carries the file's path once, with the launch key; `/open` keeps it here under a token of its own and sends the
/// browser to `#/open?request=TOKEN`, so no other page or site can make the app open a file by a link.
/// `POST /api/open` then puts the book on the shelf as `shelf add FILE` does (unless it is there already) and
/// answers with where to go: the reader for an eBook, the player for an audiobook.
enum OpenFile: WebModule {
    static func install(in app: WebApp) {
        app.router.add("POST", "/api/open") { request in
            let token = try request.required("request")
            guard let file = app.fileRequests.file(token) else {
                throw WebError(404, SecurityRefusal.openRequestExpired, kind: "not-found")
            }
            let book = try app.bookshelf().shelved(file: file)
            let id = book.book.id
            var query = URLComponents()
            query.queryItems = [URLQueryItem(name: "book", value: id)]
            let address =
                book.format == .audiobook
                ? "/#/listen?\(query.percentEncodedQuery ?? "")"
                : "/reader.html?\(query.percentEncodedQuery ?? "")&from=shelf"
            return .json(document: Opened(book: ShelfBookJSON(book), address: address))
        }
    }

    struct Opened: Encodable {
        let book: ShelfBookJSON
        /// The page that opens it: `/reader.html?book=ID` or `/#/listen?book=ID`.
        let address: String
    }
}

/// The files launch addresses asked to open, each under an unguessable token, for the server's life.
/// Unchecked Sendable: the files are read and written under `lock`.
public final class FileRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: String] = [:]

    /// A token for `file`, to put in the address instead of the file.
    func token(for file: String) -> String {
        let token = RandomToken.make()
        lock.withLock { files[token] = file }
        return token
    }

    func file(_ token: String) -> String? { lock.withLock { files[token] } }
}
