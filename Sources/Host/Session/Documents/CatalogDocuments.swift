internal import ShelfCore
internal import ShelfLibrary
import Foundation

// The catalog's --json documents (docs/json.md, "Catalog entries" and the commands after it). Plain values, made
// from the host's records: the command line and the browser app print the same ones.

/// A catalog title: docs/json.md's **Entry**.
public struct EntryJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let authors: [String]
    public let format: String
    public let formatId: String
    public var availability: AvailabilityJSON
    public let supported: Bool
    public let acquisitions: [AcquisitionPath]
    public let branches: [CatalogEntry.Branch]
    public let summary: String?
    public let publisher: String?
    public let language: String?
    public let published: String?
    public let categories: [String]
    public var canBorrow: Bool
    public var canReserve: Bool

    /// With `full`, the details `shelf book` adds (summary, publisher, language, published, categories).
    /// The browser app's: whether the library answered just now (false: this is what shelf saw of the title
    /// before). Absent from the command line's document.
    public var libraryAnswered: Bool?
    /// When the library did not answer just now: that this is what shelf saw before, and how long ago (both faces).
    public var availabilityNote: String?
    /// A title's details (`shelf book --json`, the browser's `/api/book`): what the patron may do with it now, from
    /// the host's `TitleOffer` (see `offering`). Absent from the documents of lists.
    public var actions: [TitleOffer.Action]?
    /// Which of the title's holds its Cancel means, as the API's `branch` takes it: a branch's name, "" for the title's
    /// own when a branch's is held beside it; absent when it has one hold (or none).
    public var cancelBranch: String?
    /// A title's details (`shelf book --json`, the browser's `/api/book`): the account the title was looked up at,
    /// which every action on it names (a title's id is its library's own: another library may use the same one).
    public var account: String?
    /// A title's details: the branches whose copy the patron holds already, which are not offered to reserve again;
    /// absent when none is.
    public var heldBranches: [String]?

    public init(_ entry: CatalogEntry, openable: Set<String>, full: Bool = false) {
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

    /// A title's details as `offer` has them (the one place that works out what a title offers): its actions,
    /// whether it can be borrowed or reserved, and its availability in the offer's words (a physical copy's hold
    /// says where the copy is).
    public mutating func offering(_ offer: TitleOffer) {
        actions = offer.actions
        switch offer.cancelChoice {
        case .branch(let name): cancelBranch = name
        case .own: cancelBranch = ""
        case .unnamed: cancelBranch = nil
        }
        (canBorrow, canReserve) = (offer.canBorrow, offer.canReserve)
        heldBranches = offer.heldBranches.isEmpty ? nil : offer.heldBranches
        availability = AvailabilityJSON(offer.entry.availability, words: offer.availabilityWords)
    }
}

public struct AvailabilityJSON: Encodable, Sendable {
    public let state: String
    public let words: String
    public let since: String?
    public let until: String?
    public let copiesTotal: Int?
    public let copiesAvailable: Int?
    public let holdsTotal: Int?
    public let holdPosition: Int?

    /// `words`: what the patron reads, when not the library's own (`TitleOffer.availabilityWords`).
    public init(_ a: Availability, words: String? = nil) {
        state = a.state.rawValue
        self.words = words ?? a.words
        since = a.since.map(isoDate)
        until = a.until.map(isoDate)
        copiesTotal = a.copiesTotal
        copiesAvailable = a.copiesAvailable
        holdsTotal = a.holdsTotal
        holdPosition = a.holdPosition
    }
}

/// A loan in My Books, with where its download is on this computer.
public struct LoanJSON: Encodable, Sendable {
    public let account: String
    public let entry: EntryJSON
    public let until: String?
    public let downloaded: String?

    public init(_ loan: LoanRecord, library: LibrarySession) {
        account = loan.accountID
        entry = EntryJSON(loan.entry, openable: library.openable)
        until = loan.endsAt.map(isoDate)
        downloaded = library.downloadedPath(of: loan)
    }
}

/// A hold in Reservations.
public struct HoldJSON: Encodable, Sendable {
    public let account: String
    public let entry: EntryJSON
    public let ready: Bool
    public let position: Int?
    public let queueSize: Int?
    public let until: String?
    public let branch: String?
    // A branch's hold only (absent otherwise, so an e-book hold's document is as it was):
    /// What the hold is for: "Physical copy at B".
    public let kind: String?
    /// When the library's list does not show it: that shelf keeps it.
    public let kept: String?
    /// Whether Cancel is offered: false where the library gives no way to cancel (ask the branch).
    public let canCancel: Bool?
    /// What the row offers: the host's `TitleOffer` for this hold alone (Get only for the title's own hold come in,
    /// never for a physical copy's, which is picked up at its branch).
    public let actions: [TitleOffer.Action]
    /// A hold on a physical copy that came in: where it is picked up ("Ready for pick-up at B until DAY").
    public let pickUp: String?

    public init(_ hold: HoldRecord, openable: Set<String>) {
        account = hold.accountID
        entry = EntryJSON(hold.entry, openable: openable)
        ready = hold.isReady
        position = hold.position
        queueSize = hold.queueSize
        until = hold.endsAt.map(isoDate)
        branch = hold.branch
        kind = hold.branch == nil ? nil : BranchHoldWords.kind(hold)
        kept = BranchHoldWords.kept(hold)
        canCancel = hold.branch == nil ? nil : BranchHoldWords.canCancel(hold)
        let offer = TitleOffer(hold: hold, openable: openable)
        actions = offer.actions
        pickUp = TitleOffer.pickUp(hold)
    }
}

/// What borrow, reserve, return and cancel-hold did: the action, its result in one word, the message in words.
public struct CirculationJSON: Encodable, Sendable {
    public let action: String
    public let result: String
    public let message: String
    public let entry: EntryJSON
    public let hold: HoldJSON?

    /// `message` is the outcome's words for `face` (the sentence, then the hint), as that face shows them.
    /// `account`: the library a terminal's hint names (`Circulation.accountToName`).
    public init(_ outcome: CirculationResult, face: Face, openable: Set<String>, account: String? = nil) {
        action = outcome.action
        result = outcome.result
        message = outcome.words(for: face, account: account).line
        entry = EntryJSON(outcome.entry, openable: openable)
        hold = outcome.hold.map { HoldJSON($0, openable: openable) }
    }
}

/// What `shelf sync` prints: the account, its loans and holds now, and the notifications this sync made.
public struct SyncJSON: Encodable, Sendable {
    public let account: String
    public let loans: [LoanJSON]
    public let holds: [HoldJSON]
    public let notifications: [NotificationJSON]

    public init(_ outcome: SyncPipeline.Outcome, library: LibrarySession) {
        account = outcome.account.id
        loans = outcome.loans.map { LoanJSON($0, library: library) }
        holds = outcome.holds.map { HoldJSON($0, openable: library.openable) }
        notifications = outcome.announced.map(NotificationJSON.init)
    }
}

/// A downloaded title: where it is, what it is, and whether an installed plugin opens it.
public struct DownloadedJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let path: String
    public let mediaType: String
    public let bytes: Int64
    public let supported: Bool
    public let protection: String?

    public init(entry: CatalogEntry, outcome: Circulation.DownloadOutcome) {
        id = entry.id
        title = entry.title
        path = outcome.path
        mediaType = outcome.mediaType
        bytes = outcome.bytes
        supported = outcome.supported
        protection = outcome.protection
    }
}

/// A download's state as the browser app's event stream says it (event `download`): the title's id, the state in one
/// word, how far it is, the download when done, and the host's words for it (`DownloadState`), said as they are.
public struct DownloadEventJSON: Encodable, Sendable {
    public let id: String
    public let state: String
    public let fraction: Double?
    public let download: DownloadedJSON?
    /// For `playable`: the shelf's id of the book, to open in the player.
    public let book: String?
    public let message: String
    /// For a failure: whether trying again later may work.
    public let retry: Bool?

    public init(_ state: DownloadState, face: Face) {
        id = state.entry.id
        self.state = state.name
        message = state.words(for: face).line
        if case .playable(_, let book) = state { self.book = book } else { book = nil }
        switch state {
        case .progress(_, let fraction): (self.fraction, download, retry) = (min(1, max(0, fraction)), nil, nil)
        case .done(let outcome):
            (fraction, download, retry) = (nil, DownloadedJSON(entry: outcome.entry, outcome: outcome), nil)
        case .failed(_, let error): (fraction, download, retry) = (nil, nil, error.kind == .temporary)
        case .started, .playable: (fraction, download, retry) = (nil, nil, nil)
        }
    }
}

/// A library account: docs/json.md's **Account**. Credentials never appear in it.
public struct AccountJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let catalog: String
    public let authenticationDocument: String?
    public let shelf: String?
    public let isDefault: Bool
    public let signedIn: Bool
    /// The library refused the stored sign-in at the last sync.
    public let signInRefused: Bool
    public let signIn: [String]
    public let signUp: String?
    public let syncedAt: String?
    public let syncError: String?
    /// The browser app's, when the answer is to a change: what it did, in the host's words. Absent from the command
    /// line's documents.
    public var message: String?

    public init(_ account: AccountRecord, library: LibrarySession, defaultID: String?) {
        id = account.id
        title = account.title
        catalog = account.catalogURL
        authenticationDocument = account.authDocumentURL
        shelf = account.shelfURL
        isDefault = account.id == defaultID
        signedIn = library.isSignedIn(account)
        signInRefused = library.isSignInRefused(account)
        let document = library.authenticator(for: account).document
        signIn = document?.flows.map { $0.kind?.words ?? $0.type } ?? []
        signUp = document?.register?.href
        syncedAt = account.syncedAt.map(isoDate)
        syncError = account.syncError
    }
}
