import Foundation

/// Borrow, reserve, return, cancel, sync and download for one library account.
///
/// The rules patrons asked for: borrowing never places a hold (if no copy is free, nothing is requested, and a
/// hold the server places anyway is cancelled at once); the local list of loans is only replaced after a complete,
/// successful fetch of the shelf feed.
public final class Circulation {
    public let client: CatalogClient
    public let database: LibraryDatabase
    public let account: AccountRecord
    /// Media types an installed plugin opens.
    public let openable: Set<String>

    public init(client: CatalogClient, database: LibraryDatabase, account: AccountRecord, openable: Set<String>) {
        self.client = client
        self.database = database
        self.account = account
        self.openable = openable
    }

    // MARK: Finding entries

    /// The entry `id` names: exactly, or a unique part of an identifier seen while browsing, on loan or on hold.
    public func entry(_ id: String) throws -> CatalogEntry {
        var matches = try database.findEntries(matching: id, accountID: account.id)
        // Titles seen in catalogs browsed without an account (local files, a URL given outright).
        if matches.isEmpty, !account.id.isEmpty { matches = try database.findEntries(matching: id, accountID: nil) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            throw ShelfError(.noInput, "no title \"\(id)\" in what shelf has seen of \(account.title)",
                             hint: "Browse or search first (`shelf browse`, `shelf catalog-search`), then use the ID they show.")
        }
        throw ShelfError(.usage, "\"\(id)\" matches \(matches.count) titles: "
                            + matches.prefix(5).map { "\($0.id) (\($0.title))" }.joined(separator: "; "),
                         hint: "Give more of the ID.")
    }

    /// The entry as the server says now, through its own document link; the stored one when that fails.
    public func refreshed(_ entry: CatalogEntry) -> CatalogEntry {
        refreshedIfAnswered(entry) ?? entry
    }

    /// The entry as the server says now, or nil when the server could not be asked or did not answer with it.
    public func refreshedIfAnswered(_ entry: CatalogEntry) -> CatalogEntry? {
        guard let link = entry.selfLink, let url = URL(string: link.href),
              let feed = try? client.feed(url, useCache: false) else { return nil }
        return feed.entries.first(where: { $0.id == entry.id }) ?? (feed.kind == .entry ? feed.entries.first : nil)
    }

    /// Asks the library again about every wished title matched in this account's catalog: one GET of each entry's
    /// own link. A failure leaves what was stored; nothing is ever cleared here.
    public func refreshWishedEntries() {
        guard let wishes = try? database.wishes() else { return }
        var asked = Set<String>()
        for wish in wishes where wish.accountID == account.id {
            guard let entryID = wish.entryID, asked.insert(entryID).inserted,
                  let stored = try? entry(entryID), stored.id == entryID,
                  let fresh = refreshedIfAnswered(stored) else { continue }
            try? database.rememberEntries([fresh], accountID: account.id, feedURL: nil)
        }
    }

    // MARK: Borrow

    public enum BorrowOutcome {
        case loaned(CatalogEntry)
        case alreadyOnLoan(CatalogEntry)
        /// No copy free: nothing was requested (or a hold the server placed was cancelled).
        case unavailable(CatalogEntry, holdCancelled: Bool)
        /// Free to download, no loan needed.
        case openAccess(CatalogEntry)
    }

    public func borrow(_ stored: CatalogEntry) throws -> BorrowOutcome {
        let entry = refreshed(stored)
        switch entry.availability.state {
        case .loaned:
            try database.upsertLoan(LoanRecord(accountID: account.id, entry: entry))
            return .alreadyOnLoan(entry)
        case .unavailable, .reserved:
            return .unavailable(entry, holdCancelled: false)
        case .openAccess where entry.borrowLink == nil:
            return .openAccess(entry)
        default:
            break
        }
        guard let link = entry.borrowLink, let url = URL(string: link.href) else {
            throw ShelfError(.unavailable, "the library offers no way to borrow \(entry.title)", subject: entry.id)
        }
        let result = try acquire(url, fallback: entry)
        switch result.availability.state {
        case .reserved, .unavailable:
            // The server placed a hold although the patron asked to borrow: undo it.
            var cancelled = false
            if let revoke = result.revokeLink, let revokeURL = URL(string: revoke.href) {
                cancelled = (try? circulationRequest(revokeURL)) != nil
            }
            if !cancelled, result.availability.state == .reserved {
                try database.upsertHold(HoldRecord(accountID: account.id, entry: result))
            }
            return .unavailable(result, holdCancelled: cancelled)
        default:
            var loaned = result
            if loaned.availability.state != .loaned { loaned.availability.state = .loaned }
            try database.upsertLoan(LoanRecord(accountID: account.id, entry: loaned))
            // A ready hold borrowed: its notifications no longer hold.
            try? database.withdrawNotifications(accountID: account.id, entryID: loaned.id, kinds: [.holdReady, .holdLastDay])
            return .loaned(loaned)
        }
    }

    // MARK: Reserve

    public enum ReserveOutcome {
        case placed(HoldRecord)
        case alreadyReserved(HoldRecord)
        /// A copy is free: nothing was reserved; borrow it instead.
        case availableNow(CatalogEntry)
        /// The hold came back as a loan (a copy came free meanwhile).
        case loaned(CatalogEntry)
    }

    public func reserve(_ stored: CatalogEntry, branch: String? = nil) throws -> ReserveOutcome {
        if let branch {
            let entry = refreshed(stored)
            let matches = entry.branches.filter { $0.name.localizedCaseInsensitiveContains(branch) }
            guard let chosen = matches.first(where: { $0.name.caseInsensitiveCompare(branch) == .orderedSame })
                    ?? (matches.count == 1 ? matches.first : nil), let url = URL(string: chosen.href) else {
                let names = entry.branches.map(\.name)
                throw ShelfError(.usage, names.isEmpty ? "\(entry.title) has no physical copies to reserve"
                                    : "no single branch \"\(branch)\" for \(entry.title)",
                                 hint: names.isEmpty ? nil : "Branches: " + names.joined(separator: ", "))
            }
            let response = try circulationRequest(url)
            var held = (try? CatalogDocument.parse(response.body, url: response.url)).flatMap { $0.entries.first } ?? entry
            if held.availability.state != .reserved && held.availability.state != .ready {
                held.availability = Availability(state: .reserved)
            }
            let hold = HoldRecord(accountID: account.id, entry: held, branch: chosen.name)
            try database.upsertHold(hold)
            return .placed(hold)
        }
        let entry = refreshed(stored)
        switch entry.availability.state {
        case .reserved, .ready:
            let hold = HoldRecord(accountID: account.id, entry: entry)
            try database.upsertHold(hold)
            return .alreadyReserved(hold)
        case .available, .openAccess, .loaned:
            return .availableNow(entry)
        default:
            break
        }
        guard let link = entry.borrowLink, let url = URL(string: link.href) else {
            throw ShelfError(.unavailable, "the library offers no way to reserve \(entry.title)", subject: entry.id)
        }
        let result = try acquire(url, fallback: entry)
        switch result.availability.state {
        case .reserved, .ready:
            let hold = HoldRecord(accountID: account.id, entry: result)
            try database.upsertHold(hold)
            return .placed(hold)
        default:
            var loaned = result
            loaned.availability.state = .loaned
            try database.upsertLoan(LoanRecord(accountID: account.id, entry: loaned))
            return .loaned(loaned)
        }
    }

    // MARK: Return and cancel

    public func returnLoan(_ stored: CatalogEntry) throws {
        let loan = try database.loans(accountID: account.id).first { $0.entry.id == stored.id }
        let entry = loan?.entry ?? stored
        guard let revoke = (entry.revokeLink ?? refreshed(entry).revokeLink), let url = URL(string: revoke.href) else {
            throw ShelfError(.unavailable, "the library offers no way to return \(entry.title) early",
                             subject: entry.id, hint: "It returns itself when the loan ends.")
        }
        _ = try circulationRequest(url)
        try database.deleteLoan(accountID: account.id, entryID: entry.id)
        // Returned by the patron: never "has been returned" later.
        try? database.loanReturnedByPatron(accountID: account.id, entryID: entry.id)
    }

    public func cancelHold(_ stored: CatalogEntry) throws {
        let hold = try database.holds(accountID: account.id).first { $0.entry.id == stored.id }
        let entry = hold?.entry ?? stored
        guard let revoke = (entry.revokeLink ?? refreshed(entry).revokeLink), let url = URL(string: revoke.href) else {
            throw ShelfError(.unavailable, "the library offers no way to cancel the hold on \(entry.title)", subject: entry.id)
        }
        _ = try circulationRequest(url)
        try database.deleteHold(accountID: account.id, entryID: entry.id)
        try? database.withdrawNotifications(accountID: account.id, entryID: entry.id, kinds: [.holdReady, .holdLastDay])
    }

    // MARK: Sync

    public struct SyncResult {
        public var loans: [LoanRecord]
        public var holds: [HoldRecord]
    }

    /// Reads every page of the shelf feed; only when all of it arrived and parsed are the local loans and
    /// holds replaced (one transaction). Any failure leaves them exactly as they were.
    public func sync() throws -> SyncResult {
        do {
            guard let shelf = account.shelfURL, var url = URL(string: shelf) else {
                throw ShelfError(.unavailable, "\(account.title) lists no loans feed, so there is nothing to sync",
                                 subject: account.id, hint: "Your loans stored here are unchanged.")
            }
            // The entries are remembered with the loans below, in the same transaction, each encoded once.
            var pages: [LibraryDatabase.FeedPage] = []
            var seen = Set<String>()
            for _ in 0..<50 {
                seen.insert(url.absoluteString)
                let feed = try client.feed(url, useCache: false, remembering: false)
                pages.append(LibraryDatabase.FeedPage(url: feed.url, entries: feed.entries))
                guard let next = feed.next.flatMap({ URL(string: $0.href) }), !seen.contains(next.absoluteString) else { break }
                url = next
            }
            var loans: [LoanRecord] = []
            var holds: [HoldRecord] = []
            var ids = Set<String>()
            for page in pages {
                for entry in page.entries where ids.insert(entry.id).inserted {
                    switch entry.availability.state {
                    case .reserved, .ready: holds.append(HoldRecord(accountID: account.id, entry: entry))
                    default:
                        var loaned = entry
                        if loaned.availability.state != .loaned { loaned.availability.state = .loaned }
                        loans.append(LoanRecord(accountID: account.id, entry: loaned))
                    }
                }
            }
            // Loans end when the library's clock says so: its Date header, or this machine's clock without one.
            let rules = NotificationEngine(database: database, clock: ServerClock.clock(serverDate: client.lastServerDate))
            // The notification rules run on every successful sync (and only then), on what it stored and in its
            // transaction: no other shelf changes the loans in between, and a crash keeps both or neither. Their
            // failure undoes only their own part.
            let stored = try database.replaceShelf(accountID: account.id, loans: loans, holds: holds, remembering: pages,
                                                   pagesAccountID: client.accountID) { loans, holds in
                _ = try? rules.evaluate(accountID: account.id, loans: loans, holds: holds)
            }
            // Then the wish list: the library is asked again about each wished title it holds, and a title that
            // became free to borrow is announced (stored as a notification like the ones above).
            refreshWishedEntries()
            _ = try? WishList(database: database).check()
            // Then reading positions and bookmarks of downloaded loans, where the library keeps annotations. A failure
            // there changes nothing stored here and does not fail the sync.
            _ = AnnotationSync(database: database, client: client).syncLoans(stored.loans)
            return SyncResult(loans: LibraryDatabase.inShelfOrder(stored.loans.map(\.asStored)),
                              holds: LibraryDatabase.inShelfOrder(stored.holds.map(\.asStored)))
        } catch let error as ShelfError {
            try? database.setSyncResult(accountID: account.id, error: error.message)
            throw error
        }
    }

    // MARK: Requests

    /// GETs a circulation link (borrow, hold, revoke) and returns the answer; problems become errors in words.
    @discardableResult
    func circulationRequest(_ url: URL) throws -> HTTPResponse {
        let request = HTTPRequest(.get, url, headers: ["Accept": "application/atom+xml;type=entry;profile=opds-catalog, application/opds-publication+json;q=0.9, application/api-problem+json;q=0.8, */*;q=0.1"])
        let response = try client.send(request)
        try CatalogClient.requireSuccess(response)
        return response
    }

    /// Follows a borrow link and reads the entry the server answers with.
    private func acquire(_ url: URL, fallback: CatalogEntry) throws -> CatalogEntry {
        let response = try circulationRequest(url)
        guard !response.body.isEmpty,
              let feed = try? CatalogDocument.parse(response.body, url: response.url, contentType: response.headers["Content-Type"]),
              let entry = feed.entries.first(where: { $0.id == fallback.id }) ?? feed.entries.first else {
            var assumed = fallback
            assumed.availability = Availability(state: .loaned)
            return assumed
        }
        try? database.rememberEntries([entry], accountID: account.id, feedURL: nil)
        return entry
    }
}
