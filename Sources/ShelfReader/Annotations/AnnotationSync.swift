import ShelfPlugins
import ShelfLibrary
import ShelfCore
import ShelfValues
import Foundation
import Readium

/// Sends and fetches a borrowed book's reading position and bookmarks through the library's annotation service,
/// as Palace / Library Simplified clients do, so the patron continues on another device.
///
/// Conflicts resolve to the furthest read position and the union of bookmarks; a bookmark removed on one device
/// (one both sides had already synced) is removed on the others. The server's list is read and checked first:
/// when it cannot be had or is not an annotation collection, nothing here changes. Local changes (a fetched
/// position, bookmarks added or removed elsewhere) are written before anything is sent, and a failed send loses
/// nothing — it is sent again at the next sync.
public struct AnnotationSync {
    public let database: LibraryDatabase
    public let client: CatalogClient

    public init(database: LibraryDatabase, client: CatalogClient) {
        self.database = database
        self.client = client
    }

    public enum PositionOutcome: String, Sendable {
        /// Both sides already agreed (or neither had a place).
        case unchanged
        /// This computer's place was further and was sent.
        case sent
        /// The library's place was further and is now this computer's.
        case fetched
    }

    public struct Outcome: Sendable {
        public var bookID: String
        public var title: String
        public var position: PositionOutcome = .unchanged
        /// The page counter after the sync.
        public var page: Int?
        public var pages: Int?
        public var bookmarksFetched = 0
        public var bookmarksRemovedHere = 0
        public var bookmarksSent = 0
        public var bookmarksRemovedThere = 0
        /// Sends that failed (they are tried again at the next sync); the fetched changes were kept.
        public var problems: [String] = []
    }

    /// The loan a shelf book belongs to, when the library offers annotations for it.
    public func loanEntry(of book: ShelfBook) throws -> CatalogEntry? {
        guard let accountID = book.loanAccountID, let entryID = book.loanEntryID else { return nil }
        return try database.loans(accountID: accountID).first { $0.entry.id == entryID }?.entry
    }

    /// Syncs those of `loans` (an account's, as a sync just stored them) that are downloaded and carry the link.
    public func syncLoans(_ loans: [LoanRecord]) -> [(bookID: String, result: Result<Outcome, Error>)] {
        var out: [(String, Result<Outcome, Error>)] = []
        for loan in loans where loan.entry.annotationServiceLink != nil {
            // A book no longer on the shelf (or unreadable, which `shelf books` says) has nothing here to sync.
            guard let bookID = loan.bookID, let book = try? database.shelfBook(id: bookID) else { continue }
            out.append((bookID, Result { try sync(book, entry: loan.entry) }))
        }
        return out
    }

    /// Syncs one book with the service its catalog entry links.
    public func sync(_ book: ShelfBook, entry: CatalogEntry) throws -> Outcome {
        guard let link = entry.annotationServiceLink, let url = URL(string: link.href) else {
            throw ShelfError(
                .unavailable, "the library keeps no reading positions or bookmarks for \(book.book.title)",
                subject: book.book.id, hint: "Only loans from libraries with an annotation service sync.")
        }
        let service = AnnotationService(client: client, url: url)
        let bookID = book.book.id
        let device = try database.annotationDeviceID()
        var outcome = Outcome(bookID: bookID, title: book.book.title)

        // 1. The server's list, whole and checked, before anything here changes.
        let remote = try service.list().filter { $0.source == entry.id }

        // 2. Local changes from it.
        let knownPages = book.progress?.pages
        let localPlace: Locator?
        do {
            localPlace = try database.readingLocator(bookID: bookID)
        } catch let error as DatabaseError where error.kind == .damaged {
            // A place here that cannot be read loses to the library's: fetching it replaces the damaged one.
            localPlace = nil
        }
        let localTime = book.progress?.updatedAt
        let remotePlace = remote.filter { $0.motivation == .idling }.reduce(nil as WebAnnotation?) { best, next in
            guard let best else { return next }
            return ReadingPlaceOrder.isFurther(
                next.locator, at: next.time, than: best.locator, at: best.time, pages: knownPages) ? next : best
        }
        var sendPlace: Locator?
        if let remotePlace,
            localPlace.map({
                ReadingPlaceOrder.isFurther(
                    remotePlace.locator, at: remotePlace.time, than: $0, at: localTime,
                    pages: knownPages)
            }) ?? true
        {
            let counter = ReadingPlaceOrder.pageCounter(remotePlace.locator, knownPages: knownPages)
            let when = min(remotePlace.time ?? Date(), Date())
            try database.saveReadingPlace(
                bookID: bookID, locator: remotePlace.locator, page: counter.page, pages: counter.pages, at: when)
            outcome.position = .fetched
        } else if let localPlace,
            remotePlace.map({
                ReadingPlaceOrder.isFurther(
                    localPlace, at: localTime, than: $0.locator, at: $0.time,
                    pages: knownPages)
            }) ?? true
        {
            sendPlace = localPlace
        }

        let remoteMarks = remote.filter { $0.motivation == .bookmarking && $0.id != nil }
        let remoteIDs = Set(remoteMarks.compactMap(\.id))
        var synced = try database.syncedBookmarks(bookID: bookID)
        var local = try database.bookmarks(bookID: bookID)
        var toDelete: [String] = []
        for (annotationID, bookmarkID) in synced.sorted(by: { $0.key < $1.key }) {
            let here = local.contains { $0.id == bookmarkID }
            if !remoteIDs.contains(annotationID) {
                // Removed on another device.
                if here {
                    try database.removeSyncedBookmark(
                        bookID: bookID, annotationID: annotationID, bookmarkID: bookmarkID)
                    outcome.bookmarksRemovedHere += 1
                } else {
                    try database.forgetSyncedBookmark(bookID: bookID, annotationID: annotationID)
                }
                synced[annotationID] = nil
            } else if !here {
                // Removed here: the server is told below.
                toDelete.append(annotationID)
            }
        }
        local = try database.bookmarks(bookID: bookID)
        var unmatched = local.filter { mark in !synced.values.contains(mark.id) }
        for mark in remoteMarks {
            guard let annotationID = mark.id, synced[annotationID] == nil, !toDelete.contains(annotationID) else {
                continue
            }
            let place = BookmarkPlace(mark.locator)
            if let same = unmatched.firstIndex(where: { BookmarkPlace($0.locator) == place }) {
                // Both devices marked the same place: one bookmark.
                try database.recordSyncedBookmark(
                    bookID: bookID, annotationID: annotationID, bookmarkID: unmatched[same].id)
                synced[annotationID] = unmatched[same].id
                unmatched.remove(at: same)
            } else {
                let added = try database.addSyncedBookmark(
                    Bookmark(bookID: bookID, locator: mark.locator, createdAt: min(mark.time ?? Date(), Date())),
                    annotationID: annotationID)
                synced[annotationID] = added.id
                outcome.bookmarksFetched += 1
            }
        }

        // 3. What the server lacks. A failure here is reported and retried at the next sync; nothing local is lost.
        if let sendPlace {
            do {
                try service.post(
                    WebAnnotation(
                        motivation: .idling, source: entry.id, locator: sendPlace, device: device,
                        time: localTime ?? Date()))
                outcome.position = .sent
            } catch { outcome.problems.append("the reading position was not sent: \(ShelfError.words(error))") }
        }
        for mark in unmatched {
            do {
                let stored = try service.post(
                    WebAnnotation(
                        motivation: .bookmarking, source: entry.id, locator: mark.locator,
                        device: device, time: mark.createdAt))
                guard let id = stored.id else {
                    // Kept, but with no id to know it by, it is sent again at the next sync (a second copy there).
                    outcome.problems.append(
                        "bookmark \(mark.id) was sent, but the library's answer gave it no id, so the next sync sends it again"
                    )
                    continue
                }
                try database.recordSyncedBookmark(bookID: bookID, annotationID: id, bookmarkID: mark.id)
                outcome.bookmarksSent += 1
            } catch { outcome.problems.append("bookmark \(mark.id) was not sent: \(ShelfError.words(error))") }
        }
        for annotationID in toDelete {
            do {
                try service.delete(id: annotationID)
                try database.forgetSyncedBookmark(bookID: bookID, annotationID: annotationID)
                outcome.bookmarksRemovedThere += 1
            } catch {
                outcome.problems.append("a removed bookmark was not removed at the library: \(ShelfError.words(error))")
            }
        }
        let after = try database.shelfBook(id: bookID)?.progress
        outcome.page = after?.page
        outcome.pages = after?.pages
        return outcome
    }
}
