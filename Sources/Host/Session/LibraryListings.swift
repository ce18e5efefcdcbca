internal import ShelfLibrary
internal import ShelfPlugins
import Foundation

// What the library session lists for a front end, as the documents of docs/json.md: the accounts, the wish list,
// the reading lists. One definition for the command line and the browser app.

/// The wish list as `shelf wishlist --json` prints it: the wishes, and the wished titles that just became
/// available (each said once).
public struct WishlistJSON: Encodable, Sendable {
    public var wishes: [WishJSON]
    public let available: [String]

    public init(wishes: [Wish], notices: [ReadingLists.Notice]) {
        self.wishes = wishes.map(WishJSON.init)
        available = notices.map(\.text)
    }
}

/// The reading-list entries the last pull saw, as `shelf lists show --json` prints them.
public struct ReadingListsJSON: Encodable, Sendable {
    public var entries: [ReadingListEntryJSON]

    public init(_ entries: [StoredReadingListEntry]) { self.entries = entries.map(ReadingListEntryJSON.init) }
}

extension LibrarySession {
    /// Every account (docs/json.md, Account), the one in use marked; a lone account is the one in use.
    public func accountDocuments() throws -> [AccountJSON] {
        let defaultID = try database.defaultAccountID
        let accounts = try database.accounts()
        return accounts.map {
            AccountJSON($0, library: self, defaultID: defaultID ?? (accounts.count == 1 ? $0.id : nil))
        }
    }

    /// The wish list matched again against the catalogs seen; unless `offline`, each library is asked again about
    /// the wished titles it holds that were not free; with the wished titles that just became available.
    public func wishlist(offline: Bool) throws -> (wishes: [Wish], notices: [ReadingLists.Notice]) {
        let lists = readingLists().lists
        var notices = try lists.checkWishes()
        if !offline {
            try refreshWishes()
            notices += try lists.checkWishes()
        }
        return (try database.wishes(), notices)
    }

    /// Wishes for a title (by ISBN or title), matched at once: the wish as stored after the match, and the wished
    /// titles that just became available.
    public func wish(_ text: String, author: String?) throws -> (wish: Wish, notices: [ReadingLists.Notice]) {
        let lists = readingLists().lists
        let added = try lists.wish(text, author: author)
        let notices = try lists.checkWishes()
        return (try database.wishes().first { $0.id == added.id } ?? added, notices)
    }

    /// Takes wish `id` off the wish list; false when there is no such wish.
    public func removeWish(id: Int64) throws -> Bool { try database.deleteWish(id: id) }

    /// The reading-list entries the last pull saw, by service and shelf (either narrows it).
    public func readingListEntries(service: String?, shelf: String?) throws -> [StoredReadingListEntry] {
        try database.readingListEntries(service: service, shelf: shelf)
    }

    /// The reading-list services connected, with their settings and their last pull.
    public func connectedServices() throws -> [ConnectedService] { try database.services() }
}
