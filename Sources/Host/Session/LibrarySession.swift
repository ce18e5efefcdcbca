internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
import Foundation

/// The patron's libraries as a front end sees them: the accounts and their sign-ins, one catalog client and one
/// circulation per account, the loans and holds stored by the last sync, the format tab kept per account, and
/// the titles the installed plugins open. `Shelf.library()` opens it; the command line and the browser app
/// only call it.
///
/// Safe to call from several threads at once: the database's one connection serialises every call under its
/// lock, the credential store writes its file atomically under a lock file, every call makes its own HTTP client,
/// and the media types that plugins open are computed once under `lock`.
public final class LibrarySession: @unchecked Sendable {
    public let shelf: Shelf
    public let directories: ShelfDirectories
    let database: LibraryDatabase
    let store: CredentialStore
    private let lock = NSLock()
    private var openableTypes: Set<String>?
    /// The browser app's sign-ins to reading-list services under way (`ReadingLists.startSignIn`).
    public let readingListSignIns = ReadingListSignIns()

    /// Opens (or creates) the library database in shelf's data folder; an error says where and what to do.
    public init(shelf: Shelf) throws {
        self.shelf = shelf
        directories = try shelf.requireDirectories()
        database = try shelf.openDatabase()
        store = CredentialStore(directories: directories, environment: shelf.environment)
    }

    // MARK: Accounts

    var accounts: AccountDirectory { AccountDirectory(database: database, store: store, http: shelf.catalogHTTP()) }

    /// The account NAME names, or the one in use when NAME is nil.
    public func account(_ name: String?) throws -> AccountRecord { try accounts.resolve(name) }

    /// Forgets the account NAME names, with its loans, holds and stored sign-in: the account as it was.
    public func removeAccount(_ name: String) throws -> AccountRecord { try accounts.remove(name) }

    /// Whether a sign-in is stored for the account (never the sign-in itself).
    public func isSignedIn(_ account: AccountRecord) -> Bool {
        // A credentials file that cannot be read counts as no sign-in: the patron is asked to sign in again.
        (try? store.credential(for: account.id)) != nil
    }

    /// Whether the library refused the stored sign-in at the last sync (until a sync or a sign-in gets in again).
    public func isSignInRefused(_ account: AccountRecord) -> Bool {
        // Unread, it is not said: the last sync's error (`syncError`) still tells what happened.
        (try? database.signInRefused(accountID: account.id)) ?? false
    }

    /// The library's sign-in ways and sign-up link, from its authentication document.
    func authenticator(for account: AccountRecord, http: HTTPClient = HTTPClient()) -> Authenticator {
        Authenticator(account: account, store: store, http: http)
    }

    // MARK: Catalogs and circulation

    /// A catalog client for the account (signing in as it), or for catalogs that need no account.
    func client(for account: AccountRecord?) -> CatalogClient {
        let http = shelf.catalogHTTP()
        return CatalogClient(
            http: http, database: database,
            authenticator: account.map { Authenticator(account: $0, store: store, http: http) })
    }

    /// Borrowing, holds, returns and sync for the account NAME names (the one in use when nil). With no account at
    /// all and no name, titles from catalogs on disk or given by URL, which need no sign-in.
    public func circulation(account name: String?) throws -> Circulation {
        Circulation(try libraryCirculation(account: name))
    }

    /// The library's own circulation for `circulation(account:)`, for the host's sync.
    func libraryCirculation(account name: String?) throws -> ShelfLibrary.Circulation {
        let account: AccountRecord
        if name == nil, try database.accounts().isEmpty {
            account = AccountRecord(id: "", title: "catalogs browsed without an account", catalogURL: "")
        } else {
            account = try self.account(name)
        }
        return circulation(for: account)
    }

    /// The circulation a return (`.returnLoan`) or a cancel (`.cancelHold`) of the title `words` name acts through:
    /// the account NAME names; with none named, the one account whose stored loans (holds) list the title, so that a
    /// return goes to the library that lent it; the account in use when none or several do (the library is asked).
    public func circulation(account name: String?, givingBack words: String, asked: CirculationMismatch.Asked) throws
        -> Circulation
    {
        let accounts = try database.accounts()
        guard name == nil, accounts.count > 1 else { return try circulation(account: name) }
        let having = try accounts.filter { account in
            let circulation = self.circulation(for: account, openable: [])
            // A title this account has never seen is not its loan: no error, it is simply not this one.
            guard let entry = try? circulation.entry(words) else { return false }
            return asked == .returnLoan
                ? try database.loans(accountID: account.id).contains { $0.entry.id == entry.id }
                : try database.holds(accountID: account.id).contains { $0.entry.id == entry.id }
        }
        if having.count > 1 {
            let names = having.map { "\($0.title) (--account \($0.id))" }.joined(separator: ", ")
            throw ShelfError(
                .usage,
                "“\(words)” is " + (asked == .returnLoan ? "on loan" : "on hold")
                    + " at \(having.count) libraries: \(names)",
                hint: "Name the library with --account.")
        }
        if let only = having.first { return Circulation(self.circulation(for: only)) }
        return try circulation(account: nil)
    }

    func circulation(for account: AccountRecord, openable: Set<String>? = nil) -> ShelfLibrary.Circulation {
        ShelfLibrary.Circulation(
            client: client(for: account), database: database, account: account, openable: openable ?? self.openable)
    }

    /// Media types that an installed format plugin opens.
    public var openable: Set<String> {
        lock.withLock {
            if let openableTypes { return openableTypes }
            let types = Set(shelf.registry.formatPlugins.flatMap { $0.descriptor.mediaTypes.map(MediaTypes.base) })
            openableTypes = types
            return types
        }
    }

    // MARK: The format tab, kept per account while browsing and searching

    /// The tab `choice` names ("all", "ebook(s)", "audiobook(s)"), remembered for the account; without a choice,
    /// the one remembered.
    public func formatTab(choosing choice: String?, account: AccountRecord?) throws -> FormatTab? {
        if let choice {
            let tab: FormatTab = choice.hasPrefix("audio") ? .audiobook : (choice.hasPrefix("ebook") ? .ebook : .all)
            if let account { try database.setMeta("catalog.format.\(account.id)", tab.rawValue) }
            return tab
        }
        guard let account else { return nil }
        return try database.meta("catalog.format.\(account.id)").flatMap(FormatTab.init(rawValue:))
    }

    // MARK: My Books and Reservations

    /// The account's id for NAME; nil (every account) when NAME is nil or names no account.
    public func accountID(_ name: String?) -> String? {
        // An unknown name lists every account's loans, as it always has: the listing is never an error.
        name.flatMap { try? accounts.resolve($0).id }
    }

    /// Each account's title by its id when the patron has several libraries (lists then name the library of each loan,
    /// hold and notification, and hints name `--account`); empty with one.
    public func libraryNamesWhenSeveral() throws -> [String: String] {
        let accounts = try database.accounts()
        guard accounts.count > 1 else { return [:] }
        return Dictionary(accounts.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    public func loans(account name: String?) throws -> [LoanRecord] { try database.loans(accountID: accountID(name)) }
    public func holds(account name: String?) throws -> [HoldRecord] { try database.holds(accountID: accountID(name)) }
    /// The notifications not yet opened, newest first; with `all`, also those opened and those withdrawn.
    public func notifications(all: Bool) throws -> [NotificationRecord] {
        try database.notifications(includeWithdrawn: all).filter { all || $0.isUnread }
    }

    /// Where a loan's download is on this computer, if it was downloaded.
    public func downloadedPath(of loan: LoanRecord) -> String? {
        // A book row that cannot be read shows as not downloaded; `shelf books` shows the shelf itself.
        loan.bookID.flatMap { try? database.book(id: $0)?.path }
    }

    // MARK: Sync

    /// The pipeline a sync runs (loans and holds, rules, wishes, annotations, then delivery to `sinks`).
    public func syncPipeline(sinks: [NotificationSink]) -> SyncPipeline { SyncPipeline(library: self, sinks: sinks) }

    // MARK: Reading lists and the wish list

    public func readingLists() -> ReadingLists {
        ReadingLists(
            ShelfLibrary.ReadingLists(
                database: database, store: store, registry: { self.shelf.registry },
                router: { self.shelf.router }), signIns: readingListSignIns,
            uploads: directories.data.appendingPathComponent("reading-lists"))
    }

    /// Asks every library again about each title of its catalog a wish matches, and searches the catalogs that have
    /// none yet (WishSearch's pace), so that the availability the wish list shows is the library's of now and a copy
    /// freed at any library is seen. A library that cannot be reached keeps what was seen before, with its age.
    public func refreshWishes() throws {
        for account in try database.accounts() {
            let circulation = self.circulation(for: account, openable: [])
            circulation.refreshWishedEntries()
            WishSearch(client: circulation.client, database: database, account: account).run()
        }
    }
}

// MARK: Library books on the bookshelf

extension LibrarySession {
    /// Downloads the catalog title's free sample onto the shelf, marked as a sample.
    public func addSample(_ entry: CatalogEntry, account: AccountRecord, to bookshelf: Bookshelf) throws -> ShelfBook {
        try bookshelf.reader.addSample(
            entry, accountID: account.id, openable: openable,
            http: shelf.catalogHTTP())
    }

    /// Returns the loan a book on the shelf came from; an error (and nothing returned) when it is not on loan.
    public func returnLoan(of book: ShelfBook) throws {
        guard let accountID = book.loanAccountID, let entryID = book.loanEntryID else {
            throw ShelfError(
                .usage, "“\(book.book.title)” is not on loan, so there is nothing to return",
                hint: "Remove it without --return.")
        }
        let circulation = Circulation(self.circulation(for: try accounts.resolve(accountID.isEmpty ? nil : accountID)))
        try circulation.returnLoan(try circulation.entry(entryID))
    }
}
