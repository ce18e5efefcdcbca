import Foundation
import Glibc
import Host

/// What catalog commands share: the database, the account, the client, plugins' media types, and output shapes.
final class CatalogContext {
    let context: Context
    let directories: ShelfDirectories
    let database: LibraryDatabase
    let store: CredentialStore

    init(_ context: Context) throws {
        self.context = context
        guard let directories = context.shelf.directories else {
            throw ShelfError(.usage, "shelf cannot tell where to keep its files", hint: "Set HOME, or SHELF_HOME=DIR.")
        }
        self.directories = directories
        do {
            database = try LibraryDatabase(directories: directories)
        } catch {
            throw ShelfError(.ioError, "\(error)", subject: directories.databaseFile.path)
        }
        store = CredentialStore(directories: directories)
    }

    var accounts: AccountDirectory { AccountDirectory(database: database, store: store) }

    func account(_ args: Arguments) throws -> AccountRecord { try accounts.resolve(args.value("--account")) }

    func client(for account: AccountRecord?) -> CatalogClient {
        let http = HTTPClient(configuration: CatalogClient.defaultConfiguration)
        return CatalogClient(http: http, database: database,
                             authenticator: account.map { Authenticator(account: $0, store: store, http: http) })
    }

    func circulation(_ args: Arguments) throws -> Circulation {
        let account: AccountRecord
        if args.value("--account") == nil, try database.accounts().isEmpty {
            // No account: titles from catalogs on disk or given by URL, which need no sign-in.
            account = AccountRecord(id: "", title: "catalogs browsed without an account", catalogURL: "")
        } else {
            account = try self.account(args)
        }
        return Circulation(client: client(for: account), database: database, account: account, openable: openable)
    }

    /// Media types that an installed format plugin opens.
    lazy var openable: Set<String> = Set(context.shelf.registry.formatPlugins.flatMap { $0.descriptor.mediaTypes.map(MediaTypes.base) })

    // MARK: The format tab, kept per account while browsing and searching

    func tab(_ args: Arguments, account: AccountRecord?) throws -> FormatTab? {
        if let chosen = try args.choice("--format", ["all", "ebook", "audiobook", "ebooks", "audiobooks"]) {
            let tab: FormatTab = chosen.hasPrefix("audio") ? .audiobook : (chosen.hasPrefix("ebook") ? .ebook : .all)
            if let account { try database.setMeta("catalog.format.\(account.id)", tab.rawValue) }
            return tab
        }
        guard let account else { return nil }
        return try database.meta("catalog.format.\(account.id)").flatMap(FormatTab.init(rawValue:))
    }
}

// MARK: JSON shapes (docs/json.md)

struct EntryJSON: Encodable {
    let id: String
    let title: String
    let authors: [String]
    let format: String
    let formatId: String
    let availability: AvailabilityJSON
    let supported: Bool
    let acquisitions: [AcquisitionPath]
    let branches: [CatalogEntry.Branch]
    let summary: String?
    let publisher: String?
    let language: String?
    let published: String?
    let categories: [String]
    let canBorrow: Bool
    let canReserve: Bool

    init(_ entry: CatalogEntry, openable: Set<String>, full: Bool = false) {
        id = entry.id
        title = entry.title
        authors = entry.authors
        format = entry.format.words
        formatId = entry.format.rawValue
        availability = AvailabilityJSON(entry.availability)
        supported = entry.isSupported(by: openable)
        acquisitions = entry.acquisitionPaths
        branches = entry.branches
        summary = full ? entry.summary : nil
        publisher = full ? entry.publisher : nil
        language = full ? entry.language : nil
        published = full ? entry.published : nil
        categories = full ? entry.categories : []
        canBorrow = entry.borrowLink != nil && entry.availability.canBorrowNow
        canReserve = entry.borrowLink != nil && entry.availability.state == .unavailable
    }
}

struct AvailabilityJSON: Encodable {
    let state: String
    let words: String
    let since: String?
    let until: String?
    let copiesTotal: Int?
    let copiesAvailable: Int?
    let holdsTotal: Int?
    let holdPosition: Int?

    init(_ a: Availability) {
        state = a.state.rawValue
        words = a.words
        since = a.since.map(isoDate)
        until = a.until.map(isoDate)
        copiesTotal = a.copiesTotal
        copiesAvailable = a.copiesAvailable
        holdsTotal = a.holdsTotal
        holdPosition = a.holdPosition
    }
}

/// A date as every --json output writes it: "2026-11-29T18:32:49Z" (UTC, whole seconds). Written by
/// hand: creating an ISO8601DateFormatter (ICU) per date cost 0.7 s on a shelf of 10,000 books. Years
/// outside 0...9999 go through one shared formatter.
func isoDate(_ date: Date) -> String {
    var seconds = time_t(floor(date.timeIntervalSince1970))
    var t = tm()
    guard gmtime_r(&seconds, &t) != nil, (0...9999).contains(t.tm_year + 1900) else {
        return isoFormatterLock.withLock { isoFormatter.string(from: date) }
    }
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let year = String(t.tm_year + 1900)
    return String(repeating: "0", count: 4 - year.count) + year + "-" + two(t.tm_mon + 1) + "-" + two(t.tm_mday) + "T"
        + two(t.tm_hour) + ":" + two(t.tm_min) + ":" + two(t.tm_sec) + "Z"
}

private let isoFormatter = ISO8601DateFormatter()
private let isoFormatterLock = NSLock()

struct LoanJSON: Encodable {
    let account: String
    let entry: EntryJSON
    let until: String?
    let downloaded: String?

    init(_ loan: LoanRecord, openable: Set<String>, database: LibraryDatabase) {
        account = loan.accountID
        entry = EntryJSON(loan.entry, openable: openable)
        until = loan.endsAt.map(isoDate)
        downloaded = loan.bookID.flatMap { try? database.book(id: $0)?.path }
    }
}

struct HoldJSON: Encodable {
    let account: String
    let entry: EntryJSON
    let ready: Bool
    let position: Int?
    let queueSize: Int?
    let until: String?
    let branch: String?

    init(_ hold: HoldRecord, openable: Set<String>) {
        account = hold.accountID
        entry = EntryJSON(hold.entry, openable: openable)
        ready = hold.isReady
        position = hold.position
        queueSize = hold.queueSize
        until = hold.endsAt.map(isoDate)
        branch = hold.branch
    }
}

// MARK: Text

enum CatalogText {
    /// Two lines per entry: the title line, then format, availability, support and ID — all in words.
    static func entry(_ entry: CatalogEntry, openable: Set<String>, indent: String = "  ") -> String {
        var first = indent + entry.title
        if !entry.authors.isEmpty { first += " — " + entry.authors.prefix(3).joined(separator: ", ") }
        var facts = [entry.format.words]
        if entry.hasAcquisitions || entry.availability.state != .unknown { facts.append(entry.availability.words) }
        if !entry.isSupported(by: openable) { facts.append("not supported on this device") }
        return first + "\n" + indent + "  " + facts.joined(separator: " · ") + "\n" + indent + "  ID: " + entry.id
    }

    static func quoted(_ text: String) -> String { "“\(text)”" }
}

/// Reads one line from standard input (a password or token piped in by a script).
func readSecretLine(prompt: String?, echo: Bool = false) -> String? {
    if let prompt {
        fputs(prompt, stderr)
        fflush(stderr)
    }
    var saved = termios()
    let terminal = isatty(0) == 1 && !echo && tcgetattr(0, &saved) == 0
    if terminal {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &quiet)
    }
    defer {
        if terminal {
            tcsetattr(0, TCSANOW, &saved)
            fputs("\n", stderr)
        }
    }
    guard let line = readLine(strippingNewline: true) else { return nil }
    return line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
}
