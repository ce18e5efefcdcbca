import Foundation
import Host

/// The library in the API: accounts and sign-in (`AccountsAPI`), the catalog (`CatalogAPI`), borrowing and
/// downloads (`CirculationAPI`), and here My Books, Reservations, the shelf, notifications, reading lists and the
/// wish list. Every answer is a document of docs/json.md made by the host session API in this process
/// (`app.library()`, `app.bookshelf()`), the calls the command line makes; lists come a page at a time (`Paging`).
/// What changes on its own is published on the event stream: `status` (the counts and the Reservations badge),
/// `notification`, `sync`, `download`.
enum LibraryAPI: WebModule {
    static func install(in app: WebApp) {
        let router = app.router
        let sync = LibrarySync(app: app, interval: app.configuration.syncInterval)

        router.add("GET", "/api/status") { _ in .json(document: try StatusJSON(try app.library())) }
        AccountsAPI.install(in: app, sync: sync)
        CatalogAPI.install(in: app)
        CirculationAPI.install(in: app, sync: sync)

        // MARK: My Books, Reservations, the shelf

        router.add("GET", "/api/loans") { request in
            let library = try app.library()
            let loans = try library.loans(account: request.query["account"])
            return try Paging.response(
                loans.map {
                    WithReturnQuestion(
                        document: LoanJSON($0, library: library), returnQuestion: ReturnQuestion(title: $0.entry.title))
                }, for: request)
        }
        router.add("GET", "/api/holds") { request in
            let library = try app.library()
            let holds = try library.holds(account: request.query["account"])
            return try Paging.response(holds.map { HoldJSON($0, openable: library.openable) }, for: request)
        }
        let shelfPages = ShelfPages()
        router.add("GET", "/api/shelf") { request in
            try shelfPages.response(for: request, bookshelf: try app.bookshelf())
        }
        router.add("POST", "/api/sync") { _ in try sync.now() }
        // Reservations and My Books, opened: the library asked at most once a minute ("force": Check now).
        router.add("POST", "/api/library/check") { request in
            try sync.check(force: try request.json().bool("force") == true)
        }

        // MARK: Notifications

        router.add("GET", "/api/notifications") { request in
            let records = try app.library().notifications(all: request.query["all"] == "true")
            return try Paging.response(records.map(NotificationJSON.init), for: request)
        }
        // Marks the notification read and says where it leads: Reservations, My Books, or (with book) the title.
        router.add("POST", "/api/notifications/{id}/open") { request in
            guard let text = request.parameters["id"], let id = Int64(text) else {
                throw WebError(400, RequestProblem.idNotANumber(of: "notification"))
            }
            guard let record = try app.library().openNotification(id) else {
                throw WebError(CommandLookup.noNotification(id: String(id)).error)
            }
            let route = try request.json().bool("book") == true ? record.bookRoute : record.route
            sync.publishStatus()
            return .json(document: OpenNotificationJSON(notification: record, route: route))
        }

        // MARK: Reading lists and the wish list

        router.add("GET", "/api/wishlist") { _ in
            let library = try app.library()
            let (wishes, notices) = try library.wishlist(offline: false)
            var document = WishlistJSON(wishes: wishes, notices: notices)
            let names = try LibraryNames.all(library)
            let standing = try library.titleAvailability(
                wishes.map { .init(title: $0.title, authors: $0.authors, isbn: $0.isbn) })
            document.wishes = zip(document.wishes, standing).map { wish, standing in
                var wish = LibraryNames.naming(wish, names)
                wish.atLibrary = TitleAvailabilityJSON(standing, openable: library.openable)
                return wish
            }
            return .json(document: document)
        }
        router.add("POST", "/api/wishlist") { request in
            let title = try request.required("title")
            let author = try request.json().word("author")
            let library = try app.library()
            let wish = WishJSON(try library.wish(title, author: author).wish)
            let words = WishListChange.added(title: wish.title).words(for: .browser)
            return .json(
                document: WithMessage(
                    document: LibraryNames.naming(wish, try LibraryNames.all(library)), message: words.line),
                status: 201)
        }
        router.add("DELETE", "/api/wishlist/{id}") { request in
            guard let text = request.parameters["id"], let id = Int64(text) else {
                throw WebError(400, RequestProblem.idNotANumber(of: "wish"))
            }
            let library = try app.library()
            // The title, read before it goes, so that the page says which wish was removed.
            guard let title = try library.storedWishes().first(where: { $0.id == id })?.title,
                try library.removeWish(id: id)
            else {
                throw WebError(CommandLookup.noWish(id: String(id)).error)
            }
            let words = WishListChange.removed(title: title).words(for: .browser)
            return .json(document: RemovedWish(id: id, message: words.line))
        }
        ReadingListsAPI.install(in: app)

        sync.start()
    }
}

/// The library's name as the app names it everywhere (the account's title, "Fake Public Library"), added as
/// `library` to the documents that carry only the account's id: a patron reads the name, never the id.
enum LibraryNames {
    static func all(_ library: LibrarySession) throws -> [String: String] {
        Dictionary(try library.accountDocuments().map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    /// The library a catalog page comes from: the account asked for, else the one in use.
    static func current(_ library: LibrarySession, account: String?) throws -> String? {
        let accounts = try library.accountDocuments()
        return (accounts.first { $0.id == account } ?? accounts.first { $0.isDefault })?.title
    }

    static func naming(_ wish: WishJSON, _ names: [String: String]) -> WishJSON {
        var named = wish
        if let account = wish.account { named.library = names[account] ?? account }
        return named
    }
}

/// A host document with the host's words about what the request did (`message`) beside its own members.
struct WithMessage<Document: Encodable>: Encodable {
    let document: Document
    let message: String

    private enum Key: String, CodingKey { case message }

    func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(message, forKey: .message)
    }
}

/// What `DELETE /api/wishlist/{id}` answers.
struct RemovedWish: Encodable {
    let id: Int64
    let message: String
}
