internal import ShelfLibrary
import Foundation

/// Reading lists as a front end uses them: connect a service, pull its shelves, mark books finished and push them,
/// and the wish list's news. `LibrarySession.readingLists()` makes one; every call is the library's own
/// (`ShelfLibrary.ReadingLists`), forwarded. Safe from several threads as `LibrarySession` is.
public final class ReadingLists {
    public typealias ConnectOutcome = ReadingListConnectOutcome
    public typealias ServiceSettings = ReadingListServiceSettings
    public typealias PullOutcome = ReadingListPullOutcome
    public typealias FinishedOutcome = ReadingListFinishedOutcome
    public typealias PushReport = ReadingListPushReport
    public typealias Notice = WishNotice

    let lists: ShelfLibrary.ReadingLists

    init(_ lists: ShelfLibrary.ReadingLists) { self.lists = lists }

    /// What a service can do and which settings it takes (through `describe`, never `connect`), with what is stored.
    public func settings(service: String) throws -> ServiceSettings { try lists.settings(service: service) }

    /// Checks and stores a service's settings and secrets; with `authorize`, signs in through the browser
    /// (`openBrowser` gets the address).
    public func connect(
        service: String, settings: [String: String], secrets: [String: String], authorize: Bool,
        openBrowser: (String) -> Void
    ) throws -> ConnectOutcome {
        try lists.connect(
            service: service, settings: settings, secrets: secrets, authorize: authorize, openBrowser: openBrowser)
    }

    public func disconnect(service: String) throws { try lists.disconnect(service: service) }

    /// Pulls every connected service (or one). A service that fails keeps what the last pull saw.
    public func pull(service: String?) throws -> [PullOutcome] { try lists.pull(service: service) }

    /// Marks a book on the shelf read and queues it for every connected service that records reads.
    public func finished(_ record: BookRecord, isbn: String?) throws -> FinishedOutcome {
        try lists.finished(record, isbn: isbn)
    }

    /// Marks a book file that is not on the shelf read, as above.
    public func finished(file path: String, isbn: String?) throws -> FinishedOutcome {
        try lists.finished(file: path, isbn: isbn)
    }

    /// Sends every pending push (to one service, or all).
    public func push(service: String?) throws -> [PushReport] { try lists.push(service: service) }

    /// Matches every wish to the catalogs; the wishes that just became available, each said once.
    @discardableResult
    public func checkWishes() throws -> [Notice] { try lists.checkWishes() }
}
