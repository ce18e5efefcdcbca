import ShelfValues
import Foundation

/// The wish list's check, on the database alone (no plugins): matches every wish to the catalogs shelf has seen,
/// records availability, and keeps one `wish-available` notification per wished title that can be borrowed now.
///
/// A notice is made once, when a matched title turns from "not free" to "free" (`notified_at`), stored as a
/// notification (route `book:<entry id>`) so that it reaches the desktop and the terminal like the loan and hold
/// notices, and withdrawn when no wish holds it any more: the title stopped being free, the wish matched something
/// else, or the wish was removed.
public struct WishList {
    public let database: LibraryDatabase

    /// How long the library's word on a title's availability counts as "now": an older sighting is never announced
    /// as free (the next look at the library announces it), and the wish list says how old it is.
    public static let freshFor: TimeInterval = 10 * 60

    /// Whether availability the library said at `seenAt` still counts as the library's word at `date`.
    public static func isFresh(_ seenAt: Date?, at date: Date = Date()) -> Bool {
        seenAt.map { date.timeIntervalSince($0) <= freshFor } ?? true
    }

    public init(database: LibraryDatabase) {
        self.database = database
    }

    /// Matches every wish and records availability; returns the wishes that just became available.
    @discardableResult
    public func check(at date: Date = Date()) throws -> [WishNotice] {
        let wishes = try database.wishes()
        let matcher = try wishes.isEmpty ? WishMatcher(entries: []) : WishMatcher(database: database)
        let libraries = Dictionary(try database.accounts().map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        var notices: [WishNotice] = []
        // One transaction: one sync to disk for the whole list, and a crash leaves the previous check whole.
        try database.connection.transaction {
            var free = Set<String>()
            var announced = Set<String>()
            let update = try database.wishMatchUpdate()
            for var wish in wishes {
                let before = wish
                guard let match = matcher.matchSummary(wish) else {
                    wish.accountID = nil; wish.entryID = nil; wish.matchedBy = nil
                    wish.availability = nil; wish.available = false; wish.notifiedAt = nil
                    try update.run(wish, changed: wish != before, at: date)
                    continue
                }
                wish.accountID = match.accountID
                wish.entryID = match.entryID
                wish.matchedBy = match.matchedBy
                wish.availability = match.availability.words
                let available = match.availability.canBorrowNow
                // Free by an old sighting only: not announced (a later look at the library does), nor withdrawn.
                let fresh = Self.isFresh(match.seenAt, at: date)
                if available { free.insert(Self.key(match.accountID, match.entryID)) }
                // One title, one notice: a second wish for the same title shares the first one's.
                if available && fresh && !wish.available && wish.notifiedAt == nil
                    && announced.insert(Self.key(match.accountID, match.entryID)).inserted
                {
                    let library = libraries[match.accountID] ?? match.accountID
                    wish.notifiedAt = date
                    let text = NotificationText.wishAvailable(match.title, library: library)
                    var notificationID: Int64?
                    // Catalogs browsed without an account have no library to send the patron to.
                    if libraries[match.accountID] != nil {
                        notificationID = try database.storeWishNotification(
                            accountID: match.accountID, entryID: match.entryID,
                            title: match.title, text: text, at: date)
                    }
                    // Announced already (live from an earlier check, for another wish of the same title).
                    if libraries[match.accountID] != nil, notificationID == nil {
                        wish.available = available
                        try update.run(wish, changed: wish != before, at: date)
                        continue
                    }
                    notices.append(WishNotice(wish: wish, library: library, text: text, notificationID: notificationID))
                }
                if !available { wish.notifiedAt = nil }
                wish.available = available && (fresh || wish.available)
                try update.run(wish, changed: wish != before, at: date)
            }
            // Withdraw the notices no wish holds any more.
            for live in try database.liveWishNotifications()
            where !free.contains(Self.key(live.accountID, live.entryID)) {
                try database.withdrawNotifications(
                    accountID: live.accountID, entryID: live.entryID, kinds: [.wishAvailable], at: date)
            }
        }
        return notices
    }

    private static func key(_ accountID: String, _ entryID: String) -> String { accountID + "\u{1F}" + entryID }
}
