internal import ShelfCore
internal import ShelfLibrary
internal import ShelfPlugins
import Foundation

// The reading lists' and the wish list's --json documents (docs/json.md, "Reading lists").

/// A title on a connected reading list, as the last pull saw it.
public struct ReadingListEntryJSON: Encodable, Sendable {
    public let service: String
    public let identifiers: [String: String]
    public let title: String
    public let authors: [String]
    public let shelf: String
    public let shelves: [String]?
    public let dateAdded: String?
    public let dateRead: String?
    public let rating: Double?
    /// The browser app's: how the title stands at the patron's libraries (absent from the command line's document).
    public var atLibrary: TitleAvailabilityJSON?
    /// The browser app's: the shelf's name for a heading ("To read"; the words module's `ReadingListShelfNames`).
    public var shelfName: String?

    public init(_ stored: StoredReadingListEntry) {
        let e = stored.entry
        service = stored.service
        identifiers = e.identifiers
        title = e.title
        authors = e.authors
        shelf = e.shelf
        shelves = e.shelves
        dateAdded = e.dateAdded
        dateRead = e.dateRead
        rating = e.rating
    }
}

/// A wished title and where a library has it.
public struct WishJSON: Encodable, Sendable {
    public let id: Int64
    public let title: String
    public let authors: [String]
    public let isbn: String?
    public let source: String
    public let matched: Bool
    public let matchedBy: String?
    public let account: String?
    public let entryId: String?
    public let availability: String?
    public let available: Bool
    public let words: String
    /// The browser app's: the library the wish matched at, named as the app names it (the account's title).
    /// Absent from the command line's document.
    public var library: String?
    /// The browser app's, as for a reading-list entry: how the title stands, with its Get or Reserve.
    public var atLibrary: TitleAvailabilityJSON?

    public init(_ wish: Wish) {
        id = wish.id
        title = wish.title
        authors = wish.authors
        isbn = wish.isbn
        source = wish.source
        matched = wish.entryID != nil
        matchedBy = wish.matchedBy
        account = wish.accountID
        entryId = wish.entryID
        availability = wish.availability.map { Sighting.availability($0, seenAt: wish.seenAt) }
        // Free by an old sighting is not "available now": the page says how old it is instead.
        available = wish.available && WishList.isFresh(wish.seenAt)
        words = WishText.words(wish)
    }
}

public enum WishText: Sendable {
    /// Where a wished title is, in words: its availability and library, or that no catalog has it yet.
    public static func words(_ wish: Wish) -> String {
        guard let entryID = wish.entryID else { return "not in any library's catalog yet" }
        let how = wish.matchedBy == "isbn" ? "matched by ISBN" : "matched by title and author"
        let availability =
            wish.availability.map { Sighting.availability($0, seenAt: wish.seenAt) }
            ?? "availability unknown"
        return "\(availability) at \(wish.accountID ?? "a library") (\(how); ID \(entryID))"
    }
}

/// A reading-list service just connected, as `shelf lists connect --json` prints it.
public struct ConnectedServiceJSON: Encodable, Sendable {
    public let service: String
    public let plugin: String
    public let authorized: Bool
    public let capabilities: ConnectorDescription

    public init(_ outcome: ReadingLists.ConnectOutcome) {
        service = outcome.service
        plugin = outcome.pluginID
        authorized = outcome.authorized
        capabilities = outcome.description
    }
}

/// A service's settings from its describe, and what is stored (`shelf lists connect SERVICE --json` without options).
public struct ServiceSettingsJSON: Encodable, Sendable {
    public let service: String
    public let plugin: String
    public let connected: Bool
    public let settings: [String: String]
    public let capabilities: ConnectorDescription

    public init(_ info: ReadingLists.ServiceSettings) {
        service = info.service
        plugin = info.pluginID
        connected = info.stored != nil
        settings = info.stored ?? [:]
        capabilities = info.description
    }
}

/// What `shelf lists pull --json` prints: each service pulled, and the wished titles that just became available.
public struct PullJSON: Encodable, Sendable {
    public struct Pulled: Encodable, Sendable {
        public let service: String
        public let entries: Int
        public let shelves: [ReadingListShelf]
        public let newWishes: Int
        public let error: String?
        /// Rows left out for having no title; absent when there were none.
        public let skippedWithoutTitle: Int?
    }

    public let pulled: [Pulled]
    public let available: [String]

    public init(_ outcomes: [ReadingLists.PullOutcome], notices: [ReadingLists.Notice]) {
        pulled = outcomes.map {
            Pulled(
                service: $0.service, entries: $0.entries, shelves: $0.shelves, newWishes: $0.newWishes, error: $0.error,
                skippedWithoutTitle: $0.skippedWithoutTitle > 0 ? $0.skippedWithoutTitle : nil)
        }
        available = notices.map(\.text)
    }
}

/// What `shelf lists push --json` prints: one report per finished book and service.
public struct PushJSON: Encodable, Sendable {
    public struct Pushed: Encodable, Sendable {
        public let service: String
        public let title: String
        public let shelf: String
        public let outcome: String
        public let message: String?
        public let file: String?
        /// Where to upload `file`; only with a file.
        public let uploadURL: String?
    }

    public let pushed: [Pushed]

    public init(_ reports: [ReadingLists.PushReport]) {
        pushed = reports.map {
            Pushed(
                service: $0.service, title: $0.title, shelf: $0.shelf, outcome: $0.outcome, message: $0.message,
                file: $0.file, uploadURL: $0.file == nil ? nil : $0.uploadURL)
        }
    }
}

/// The connected services, as `shelf lists services --json` prints them.
public struct ServicesJSON: Encodable, Sendable {
    public struct Service: Encodable, Sendable {
        public let service: String
        public let plugin: String
        public let settings: [String: String]
        public let pulled: String?
        public let error: String?
    }

    public let services: [Service]

    public init(_ services: [ConnectedService]) {
        self.services = services.map {
            Service(
                service: $0.service, plugin: $0.pluginID, settings: $0.settings, pulled: $0.pulledAt.map(isoDate),
                error: $0.pullError)
        }
    }
}

/// A book marked read, as `shelf finished --json` prints it: what is recorded, and for which services.
public struct FinishedJSON: Encodable, Sendable {
    public let title: String
    public let authors: [String]
    public let identifiers: [String: String]
    public let queued: [String]
    public let alreadyQueued: [String]

    public init(_ outcome: ReadingLists.FinishedOutcome) {
        title = outcome.entry.title
        authors = outcome.entry.authors
        identifiers = outcome.entry.identifiers
        queued = outcome.queued
        alreadyQueued = outcome.alreadyQueued
    }
}

/// A reading-list service as the browser app's Reading lists page shows it: connected or not, the settings its
/// Connect form asks for (secrets never sent back), its last pull, and how its last sign-in from the app went.
public struct ReadingListServiceJSON: Encodable, Sendable {
    public struct Setting: Encodable, Sendable {
        public let key: String
        public let label: String
        public let secret: Bool
        public let required: Bool
        public let type: String
        /// What is stored now (never a secret's value).
        public let value: String?
    }

    public struct SignIn: Encodable, Sendable {
        /// "waiting", "done" or "failed".
        public let state: String
        public let message: String
    }

    public let service: String
    public let name: String
    public let connected: Bool
    /// Whether Connect signs in through the service's page ("oauth1", "oauth2"), or not ("none").
    public let authorization: String
    public let settings: [Setting]
    public let pulledAt: Date?
    public let pullError: String?
    public let signIn: SignIn?

    public init(_ info: ReadingLists.ServiceSettings, connected: ConnectedService?, signIn: ReadingListSignIns.State?) {
        let d = info.description
        service = info.service
        name = d.name ?? info.service
        self.connected = connected != nil
        authorization = d.authorization ?? "none"
        settings = (d.settings ?? []).map {
            Setting(
                key: $0.key, label: $0.label, secret: $0.secret == true, required: $0.required == true,
                type: $0.type ?? "text", value: $0.secret == true ? nil : info.stored?[$0.key])
        }
        pulledAt = connected?.pulledAt
        pullError = connected?.pullError
        switch signIn {
        case .waiting(let change)?: self.signIn = SignIn(state: "waiting", message: change.words(for: .browser).line)
        case .finished(let change)?:
            self.signIn = SignIn(state: change.failed ? "failed" : "done", message: change.words(for: .browser).line)
        case nil: self.signIn = nil
        }
    }
}

/// How a listed title stands at the patron's libraries (`TitleAvailability`), with the catalog entry a Get or a
/// Reserve acts on.
public struct TitleAvailabilityJSON: Encodable, Sendable {
    /// "available", "waiting", "loaned", "reserved", "ready", "not-in-catalog" or "unknown".
    public let standing: String
    public let words: String
    public let waiting: Int?
    public let account: String?
    public let library: String?
    /// "borrow" or "reserve" where one applies.
    public let action: String?
    public let entry: EntryJSON?

    public init(_ a: TitleAvailability, openable: Set<String>) {
        standing = a.standing.rawValue
        words = a.words
        waiting = a.waiting
        account = a.accountID
        library = a.library
        action = a.action
        entry = a.entry.map { EntryJSON($0, openable: openable) }
    }
}

/// `shelf lists disconnect --json`: the service, whether it was connected, and what was done in words.
public struct DisconnectedJSON: Encodable, Sendable {
    public let service: String
    public let wasConnected: Bool
    public let message: String

    public init(service: String, change: ReadingListConnectionChange) {
        self.service = service
        if case .disconnected = change { wasConnected = true } else { wasConnected = false }
        message = change.words(for: .terminal).line
    }
}
