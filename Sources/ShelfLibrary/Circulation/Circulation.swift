import ShelfPlugins
import ShelfCore
import ShelfValues
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

    /// The title `words` name among those shelf has seen of this account (browsed, searched, on loan, on hold): its
    /// identifier or its title, whole or (as `naming` allows) in part. The one resolver of catalog titles.
    public func entry(_ words: String, naming: CirculationNaming = .reading) throws -> CatalogEntry {
        var matches = try database.findEntries(matching: words, accountID: account.id)
        // Titles seen in catalogs browsed without an account (local files, a URL given outright).
        if matches.isEmpty, !account.id.isEmpty { matches = try database.findEntries(matching: words, accountID: nil) }
        func listed(_ entries: [CatalogEntry]) -> String {
            entries.map { "\($0.id) (\($0.title), \($0.format.words))" }.joined(separator: "; ")
        }
        if matches.exact.count == 1 { return matches.exact[0] }
        if matches.exact.count > 1 {
            throw ShelfError(
                .usage,
                "\(Self.quoted(words)) is the title of \(matches.exact.count) entries: \(listed(matches.exact))",
                hint: "Give the ID of the one you mean.")
        }
        if matches.partialCount == 0 {
            // With no account, `shelf browse` alone has nothing to browse: the way in is an account or an address.
            throw ShelfError(
                .noInput, "no title or ID \(Self.quoted(words)) in what shelf has seen of \(account.title)",
                hint: account.id.isEmpty
                    ? "Add your library with `shelf account add URL` (or browse a catalog by its address, `shelf browse URL`), then use the title or ID it shows."
                    : "Browse or search first (`shelf browse`, `shelf catalog-search`), then use the title or ID they show."
            )
        }
        if matches.partialCount > 1 {
            let which =
                matches.partialCount > matches.partial.count
                ? "; the first \(matches.partial.count) of \(matches.partialCount): " : ": "
            throw ShelfError(
                .usage,
                "\(Self.quoted(words)) matches \(matches.partialCount) titles\(which)\(listed(matches.partial))",
                hint: "Give more of the title, or the ID.")
        }
        let only = matches.partial[0]
        switch naming {
        case .reading:
            return only
        case .changing(let command, let confirm):
            if let confirm {
                if confirm(only) { return only }
                throw ShelfError(.usage, "not confirmed: nothing was done", subject: only.id)
            }
            throw ShelfError(
                .usage,
                "\(Self.quoted(words)) is only part of \(Self.quoted(only.title)) (\(only.id)): "
                    + "`shelf \(command)` acts only on a title's exact ID or title",
                next: NextStep(
                    terminal: "Run `shelf \(command) \(only.id)`, or run it on a terminal to confirm.", browser: nil))
        }
    }

    /// The entry as the server says now, through its own document link; the stored one when that fails.
    public func refreshed(_ entry: CatalogEntry) -> CatalogEntry {
        refreshedIfAnswered(entry) ?? entry
    }

    /// The entry as the server says now, or nil when the server could not be asked or did not answer with it.
    public func refreshedIfAnswered(_ entry: CatalogEntry) -> CatalogEntry? {
        if case .entry(let fresh) = lookUp(entry) { return fresh }
        return nil
    }

    /// What the library's catalog says of a title now, through its own link.
    public enum CatalogLookUp {
        case entry(CatalogEntry)
        /// The library answered that it no longer has the title (404 or 410 for its own link).
        case gone
        /// It could not be asked, or did not answer with the entry.
        case noAnswer
    }

    /// Asks the title's own link. A title the library says it no longer has is forgotten from what shelf has seen
    /// (never offered for borrowing from there again).
    public func lookUp(_ entry: CatalogEntry) -> CatalogLookUp {
        guard let link = entry.selfLink, let url = URL(string: link.href) else { return .noAnswer }
        let response: HTTPResponse
        do {
            response = try client.send(
                HTTPRequest(
                    .get, url, headers: ["Accept": "application/atom+xml;type=entry;profile=opds-catalog, */*;q=0.5"]))
        } catch {
            // No answer is this function's answer: callers keep the entry they had, said as seen before.
            return .noAnswer
        }
        if response.status == 404 || response.status == 410 {
            // Forgetting may fail now; then the title stays among those seen until the next look, no worse than before.
            try? database.forgetEntry(accountID: client.accountID, entryID: entry.id)
            return .gone
        }
        guard response.isSuccess,
            let feed = try? CatalogDocument.parse(
                response.body, url: response.url, contentType: response.headers["Content-Type"])
        else { return .noAnswer }
        // Remembered as `client.feed` would: the title as the library says now, seen now. Failing, the stored one
        // stays with its older sighting.
        let found = feed.entries.first(where: { $0.id == entry.id }) ?? (feed.kind == .entry ? feed.entries.first : nil)
        if let found { try? database.rememberEntries([found], accountID: client.accountID, feedURL: nil) }
        return found.map(CatalogLookUp.entry) ?? .noAnswer
    }

    /// Asks the library again about every title of this account's catalog a wish matches (not only the one each wish
    /// matched best: a copy freed here must be seen although the wish matched another library): one GET of each
    /// entry's own link. A failure leaves what was stored, with its age; nothing is ever cleared here. Returns
    /// whether every title asked about was answered.
    @discardableResult
    public func refreshWishedEntries() -> Bool {
        // A wish list that cannot be read now is said by WishList.check, which the sync runs next.
        guard let wishes = try? database.wishes(), !wishes.isEmpty,
            let matcher = try? WishMatcher(database: database)
        else { return true }
        var asked = Set<String>()
        var answered = true
        for wish in wishes {
            for entryID in matcher.entryIDs(matching: wish, accountID: account.id) where asked.insert(entryID).inserted
            {
                // A title the library no longer lists keeps what was stored (see above: nothing is cleared).
                guard let stored = try? entry(entryID), stored.id == entryID else { continue }
                guard let fresh = refreshedIfAnswered(stored) else {
                    answered = answered && stored.selfLink == nil
                    continue
                }
                // Not stored: the wish list shows what was seen before, with its age, as when the library could not
                // be asked.
                try? database.rememberEntries([fresh], accountID: account.id, feedURL: nil)
            }
        }
        return answered
    }

    // MARK: Borrow

    public func borrow(_ stored: CatalogEntry) throws -> BorrowOutcome {
        // The title as the library says now: what shelf stored earlier never decides an outcome.
        let view = try currentView(of: stored, nothingDone: "nothing was borrowed")
        // A hold the patron had before asking is theirs: whatever the answer, shelf never cancels it (only a hold
        // the library placed because of this borrow is given back).
        let heldBefore = view.isHeld
        var entry = stored
        if case .entry(let fresh) = view {
            entry = fresh
            switch fresh.availability.state {
            case .loaned:
                try database.upsertLoan(LoanRecord(accountID: account.id, entry: fresh))
                return .alreadyOnLoan(fresh)
            case .unavailable, .reserved:
                return .unavailable(fresh, holdCancelled: false)
            case .openAccess where fresh.borrowLink == nil:
                return .openAccess(fresh)
            default:
                break
            }
        }
        guard let link = entry.borrowLink, let url = URL(string: link.href) else {
            if case .notOnShelf = view {
                // What shelf stored is a loan's entry, without the link to borrow; only the title's own could say.
                throw ShelfError(
                    .temporary,
                    "the library no longer lists \(Self.quoted(entry.title)) as on loan to you, and its "
                        + "entry could not be read: nothing was borrowed", subject: entry.id,
                    next: NextStep(
                        terminal: "Try again later; `shelf browse` or `shelf catalog-search` finds the title again.",
                        browser: "Try again later; the catalog finds the title again."))
            }
            throw ShelfError(.unavailable, "the library offers no way to borrow \(entry.title)", subject: entry.id)
        }
        let result = try acquire(url, entry, action: "it lent you", nothingDone: "nothing was borrowed")
        switch result.availability.state {
        case .ready where heldBefore, .reserved where heldBefore:
            // The patron's own hold, still listed: the library lent nothing, and the hold stays as it is.
            try database.upsertHold(HoldRecord(accountID: account.id, entry: result))
            return .unavailable(result, holdCancelled: false)
        case .ready where !Self.isLoan(result): fallthrough
        case .reserved, .unavailable:
            // The server placed a hold although the patron asked to borrow: undo it.
            let cancelled = try cancelPlacedHold(result)
            if !cancelled, result.availability.state != .unavailable {
                try database.upsertHold(HoldRecord(accountID: account.id, entry: result))
            }
            return .unavailable(result, holdCancelled: cancelled)
        default:
            var loaned = result
            if loaned.availability.state != .loaned { loaned.availability.state = .loaned }
            try database.upsertLoan(LoanRecord(accountID: account.id, entry: loaned))
            // A ready hold borrowed: its notifications no longer hold. Not withdrawn now, the next sync's rules
            // withdraw them (the hold is gone); the loan, which matters, is stored above.
            try? database.withdrawNotifications(
                accountID: account.id, entryID: loaned.id, kinds: [.holdReady, .holdLastDay])
            return .loaned(loaned)
        }
    }

    /// Gives back a hold the library placed when the patron asked to borrow. True when the library confirmed it.
    private func cancelPlacedHold(_ held: CatalogEntry) throws -> Bool {
        guard let revoke = held.revokeLink, let url = URL(string: revoke.href) else { return false }
        if case .kept = try giveBack(url, held, action: "it cancelled the hold it placed on", stillThere: \.isHeld) {
            return false
        }
        return true
    }

    // MARK: Reserve

    public func reserve(_ stored: CatalogEntry, branch: String? = nil) throws -> ReserveOutcome {
        if let branch,
            let held = try database.holds(accountID: account.id).first(where: {
                $0.entry.id == stored.id && $0.branch?.caseInsensitiveCompare(branch) == .orderedSame
            })
        {
            // As for e-books: a second hold at the same branch is refused, and nothing is sent.
            return .alreadyReserved(held)
        }
        let view = try currentView(of: stored, nothingDone: "nothing was reserved")
        var entry = stored
        if case .entry(let fresh) = view { entry = fresh }
        if let branch {
            let matches = entry.branches.filter { $0.name.localizedCaseInsensitiveContains(branch) }
            guard
                let chosen = matches.first(where: { $0.name.caseInsensitiveCompare(branch) == .orderedSame })
                    ?? (matches.count == 1 ? matches.first : nil), let url = URL(string: chosen.href)
            else {
                let names = entry.branches.map(\.name)
                throw ShelfError(
                    .usage,
                    names.isEmpty
                        ? "\(entry.title) has no physical copies to reserve"
                        : "no single branch \"\(branch)\" for \(entry.title)",
                    hint: names.isEmpty ? nil : "Branches: " + names.joined(separator: ", "))
            }
            // A branch's hold may be one the loans feed never lists: not finding it there confirms nothing.
            var held = try acquire(
                url, entry, action: "it placed a hold at \(chosen.name) on", nothingDone: "nothing was reserved",
                absenceConfirms: false)
            if held.availability.state != .reserved && held.availability.state != .ready {
                held.availability = Availability(state: .reserved)
            }
            let hold = HoldRecord(accountID: account.id, entry: held, branch: chosen.name)
            try database.upsertHold(hold)
            return .placed(hold)
        }
        if case .entry = view {
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
        }
        guard let link = entry.borrowLink, let url = URL(string: link.href) else {
            throw ShelfError(.unavailable, "the library offers no way to reserve \(entry.title)", subject: entry.id)
        }
        let result = try acquire(url, entry, action: "it placed a hold on", nothingDone: "nothing was reserved")
        switch result.availability.state {
        case .ready where !Self.isLoan(result): fallthrough
        case .reserved:
            let hold = HoldRecord(accountID: account.id, entry: result)
            try database.upsertHold(hold)
            return .placed(hold)
        case .loaned:
            try database.upsertLoan(LoanRecord(accountID: account.id, entry: result))
            return .loaned(result)
        default:
            // The library answered, but with neither a hold nor a loan: what it did is not what was asked, and its
            // word is all there is (never "lent to you").
            throw ShelfError(
                .unavailable,
                "the library placed no hold on \(Self.quoted(result.title)) (\(result.availability.state.rawValue)): "
                    + "nothing was reserved", subject: result.id,
                next: NextStep(
                    terminal: "`shelf sync` shows what the library has.", browser: "Sync shows what the library has."))
        }
    }

    // MARK: Return and cancel

    /// Returns the patron's loan of `stored` through the loan's own revoke link. A title the library lists as on
    /// hold, or not at all, is refused (`CirculationMismatch`) and nothing is sent: a circulation manager gives a loan
    /// and a hold one revoke relation, so the title's link would cancel a hold while the patron asked to return.
    public func returnLoan(_ stored: CatalogEntry) throws {
        let entry = try ownEntry(of: stored, asked: .returnLoan)
        // Without a link here the library is asked; one that cannot be asked is no library without a way to return.
        var revoke = entry.revokeLink
        if revoke == nil {
            do { revoke = try askExplaining(about: entry).onLoanEntry?.revokeLink } catch {
                throw ShelfError(
                    HostServices.cancelRequested ? .cancelled : .temporary,
                    "the library could not be asked how to return \(Circulation.quoted(entry.title)) (\(ShelfError.words(error)))",
                    subject: entry.id, hint: "Nothing was changed; try again later.")
            }
        }
        guard let revoke, let url = URL(string: revoke.href) else {
            throw ShelfError(
                .unavailable, "the library offers no way to return \(entry.title) early",
                subject: entry.id, hint: "It returns itself when the loan ends.")
        }
        let outcome = try giveBack(url, entry, action: "it took back", stillThere: \.isOnLoan)
        if case .kept(let refusal) = outcome { throw refusal }
        try database.deleteLoan(accountID: account.id, entryID: entry.id)
        // Returned by the patron (or gone already): never "has been returned" later. Failing, the worst is that
        // notice later; the loan is returned and deleted above.
        try? database.loanReturnedByPatron(accountID: account.id, entryID: entry.id)
        if case .gone(let words) = outcome {
            throw ShelfError(
                .unavailable,
                "the library has no loan of \(Circulation.quoted(entry.title)) for you (\(words)); "
                    + "shelf removed it from My Books", subject: entry.id,
                next: NextStep(
                    terminal: "It may have ended or been returned elsewhere; `shelf sync` shows what the library has.",
                    browser: "It may have ended or been returned elsewhere; Sync shows what the library has."))
        }
    }

    /// Cancels the patron's hold on `stored` through the hold's own revoke link: the title's own hold (an e-book or
    /// audiobook hold) when `branch` is nil, else the hold on a physical copy at `branch`; the other stays. A title on
    /// loan, or neither, is refused as `returnLoan` refuses a hold.
    public func cancelHold(_ stored: CatalogEntry, branch: String? = nil) throws {
        let entry = try ownEntry(of: stored, asked: .cancelHold, branch: branch)
        // As in `returnLoan`: a library that cannot be asked is said so.
        var revoke = entry.revokeLink
        if revoke == nil, branch == nil {
            do { revoke = try askExplaining(about: entry).heldEntry?.revokeLink } catch {
                throw ShelfError(
                    HostServices.cancelRequested ? .cancelled : .temporary,
                    "the library could not be asked how to cancel the hold on \(Circulation.quoted(entry.title)) (\(ShelfError.words(error)))",
                    subject: entry.id, hint: "Nothing was changed; try again later.")
            }
        }
        guard let revoke, let url = URL(string: revoke.href) else {
            throw ShelfError(
                .unavailable, "the library offers no way to cancel the hold on \(entry.title)", subject: entry.id)
        }
        // The title's entry speaks of its own hold: with that hold staying, it says nothing of a branch's, and the
        // branch hold's own link answering is the library's word.
        let ownStays = try branch != nil && hold(of: entry.id, branch: nil) != nil
        let outcome = try giveBack(
            url, entry, action: "it cancelled your hold on", stillThere: ownStays ? { _ in false } : \.isHeld)
        if case .kept(let refusal) = outcome { throw refusal }
        try database.deleteHold(accountID: account.id, entryID: entry.id, branch: branch)
        // As after a borrow: the next sync's rules withdraw what this misses, the hold being gone. A ready hold's
        // notices are the title's own hold's: a branch's cancel leaves them while that hold stays.
        if branch == nil || (try? holds(of: entry.id).isEmpty) == true {
            try? database.withdrawNotifications(
                accountID: account.id, entryID: entry.id, kinds: [.holdReady, .holdLastDay])
        }
        if case .gone(let words) = outcome {
            throw ShelfError(
                .unavailable,
                "the library has no hold on \(Circulation.quoted(entry.title)) for you (\(words)); "
                    + "shelf removed it from Reservations", subject: entry.id,
                next: NextStep(
                    terminal: "`shelf sync` shows what the library has.", browser: "Sync shows what the library has."))
        }
    }

    /// The stored holds of the title at this account: its own (an e-book or audiobook hold) and its branches'.
    public func holds(of entryID: String) throws -> [HoldRecord] {
        try database.holds(accountID: account.id).filter { $0.entry.id == entryID }
    }

    /// The stored hold of the title that `branch` names: the title's own when nil, else the one at that branch (its
    /// name in any case, as `reserve` takes it).
    public func hold(of entryID: String, branch: String?) throws -> HoldRecord? {
        try holds(of: entryID).first { held in
            guard let branch else { return held.branch == nil }
            return held.branch?.caseInsensitiveCompare(branch) == .orderedSame
        }
    }

    /// The patron's own loan (for a return) or hold (for a cancel) of `stored` at this account: the one the last sync,
    /// borrow or reserve stored, else the library's entry when the library lists it so. Otherwise the library is sent
    /// nothing and `CirculationMismatch` says what the title is here.
    /// For a cancel, `branch` names the hold (nil: the title's own); a branch's hold is only ever the stored one.
    private func ownEntry(
        of stored: CatalogEntry, asked: CirculationMismatch.Asked, branch: String? = nil
    ) throws -> CatalogEntry {
        let kept =
            asked == .returnLoan
            ? try database.loans(accountID: account.id).first { $0.entry.id == stored.id }?.entry
            : try hold(of: stored.id, branch: branch)?.entry
        if let kept { return kept }
        // The library's entry is the title's own hold: never sent for a branch's hold shelf does not know.
        if let branch {
            throw ShelfError(
                .usage, "you have no hold on a physical copy of \(Circulation.quoted(stored.title)) at \(branch)",
                subject: stored.id, hint: "Nothing was cancelled.")
        }
        let view: LibraryView
        do { view = try askExplaining(about: stored) } catch {
            throw ShelfError(
                HostServices.cancelRequested ? .cancelled : .temporary,
                "the library could not be asked how to "
                    + (asked == .returnLoan ? "return " : "cancel the hold on ")
                    + "\(Circulation.quoted(stored.title)) (\(ShelfError.words(error)))",
                subject: stored.id, hint: "Nothing was changed; try again later.")
        }
        switch (asked, view.standing) {
        case (.returnLoan, .onLoan), (.cancelHold, .onHold):
            return view.entry ?? stored
        case (_, let standing):
            throw CirculationMismatch(
                asked: asked, entry: view.entry ?? stored, accountID: account.id,
                accountTitle: account.title, standing: standing)
        }
    }

    // MARK: Sync

    public struct SyncResult {
        public var loans: [LoanRecord]
        public var holds: [HoldRecord]
        /// The loans as this sync stored them, each with the shelf book it was downloaded as (for annotation sync).
        public var storedLoans: [LoanRecord]
        /// What the library changed since the last sync (a loan ended early, a hold cancelled or lapsed).
        public var changes: [LibraryChange] = []
    }

    /// Reads every page of the shelf feed; only when all of it arrived and parsed are the local loans and
    /// holds replaced (one transaction). Any failure leaves them exactly as they were.
    ///
    /// `whileStoring` runs in that transaction on what it stored (the sync pipeline's notification rules: no other
    /// shelf changes the loans in between, and a crash keeps both or neither). What follows a sync (rules, the wish
    /// list, annotations, delivery) is the sync pipeline's, above the library.
    public func sync(
        whileStoring: (_ loans: [LoanRecord], _ holds: [HoldRecord], _ clock: NotificationClock) -> Void = { _, _, _ in
        }
    )
        throws -> SyncResult
    {
        do {
            guard !account.id.isEmpty else {
                // Catalogs browsed without an account lend nothing: there is no one to sync with.
                throw ShelfError(
                    .unavailable,
                    "no library account to sync: shelf syncs the loans and holds of a library you have added",
                    next: NextStep(
                        terminal:
                            "Add your library with `shelf account add URL` and sign in with `shelf login`; then `shelf sync`.",
                        browser: "Add your library on the Accounts page and sign in."))
            }
            guard account.shelfURL.flatMap(URL.init(string:)) != nil else {
                throw ShelfError(
                    .unavailable, "\(account.title) lists no loans feed, so there is nothing to sync",
                    subject: account.id, hint: "Your loans stored here are unchanged.")
            }
            // What is changed here from now on is newer than the feed's answer (see replaceShelf).
            let mark = try database.circulationChangeMark()
            let before = try database.loans(accountID: account.id)
            let holdsBefore = try database.holds(accountID: account.id)
            // The entries are remembered with the loans below, in the same transaction, each encoded once.
            let pages = try readShelfFeed()
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
            // A hold on a physical copy at a branch may be one the loans feed never lists: kept as stored (the
            // holds listing says so). A listed hold is the branch's (and keeps its branch) only when shelf knew of no
            // hold on the title's own copies: an e-book hold and a branch hold of a title are two holds.
            let branchHolds = holdsBefore.filter { $0.branch != nil }
            let ownHolds = Set(holdsBefore.filter { $0.branch == nil }.map(\.entry.id))
            for (index, hold) in holds.enumerated() where !ownHolds.contains(hold.entry.id) {
                if let kept = branchHolds.first(where: { $0.entry.id == hold.entry.id }) {
                    holds[index].branch = kept.branch
                }
            }
            let listed = Set(holds.map(LibraryDatabase.holdKey))
            holds += branchHolds.filter { !listed.contains(LibraryDatabase.holdKey($0)) }
            // Loans end when the library's clock says so: its Date header, or this machine's clock without one.
            let clock = ServerClock.clock(serverDate: client.lastServerDate)
            let stored = try database.replaceShelf(
                accountID: account.id, loans: loans, holds: holds, remembering: pages,
                pagesAccountID: client.accountID, changesAfter: mark
            ) { loans, holds in
                whileStoring(loans, holds, clock)
            }
            // Loans that left the feed ended at the library: their files go (EndedLoans.swift).
            _ = removeFilesOfEndedLoans(before: before, after: stored.loans)
            // Returns and cancels made here deleted their rows before the feed was asked: what else went, the
            // library did.
            let changes = LibraryChange.changes(
                accountID: account.id, loansBefore: before, holdsBefore: holdsBefore, loansAfter: stored.loans,
                holdsAfter: stored.holds, now: clock.now)
            // The library let this sign-in in: no longer refused (a failure to clear it is cleared at the next sync).
            try? database.setSignInRefused(false, accountID: account.id)
            return SyncResult(
                loans: LibraryDatabase.inShelfOrder(stored.loans.map(\.asStored)),
                holds: LibraryDatabase.inShelfOrder(stored.holds.map(\.asStored)),
                storedLoans: stored.loans, changes: changes)
        } catch let error as ShelfError {
            // The error itself is thrown to the patron; the stored copy only feeds `shelf accounts`.
            try? database.setSyncResult(accountID: account.id, error: error.message)
            // A refused sign-in is said by `status` and `account list` until a sync gets in again (stored so that a
            // failure to store it costs only those words, never the sync's own error).
            if error.kind == .permission { try? database.setSignInRefused(true, accountID: account.id) }
            throw error
        }
    }

    // MARK: Requests

    /// What became of a circulation request sent once.
    enum CirculationAnswer {
        /// A success answer, read whole.
        case answered(HTTPResponse)
        /// A refusal the library stated in a readable answer (4xx).
        case refused(ShelfError)
        /// The library may have acted, but its answer was lost, cut short, late, or a server error.
        case lost
    }

    /// GETs a circulation link (borrow, hold, revoke) once: it changes the library's state, so it is never repeated
    /// once the library may have acted. Failures before the request reached the library are thrown.
    func circulationRequest(_ url: URL) throws -> CirculationAnswer {
        var request = HTTPRequest(
            .get, url,
            headers: [
                "Accept":
                    "application/atom+xml;type=entry;profile=opds-catalog, application/opds-publication+json;q=0.9, application/api-problem+json;q=0.8, */*;q=0.1"
            ])
        request.changesState = true
        if let seconds = client.http.configuration.commandDeadline {
            // Part of the command's time is kept for asking the library again should this answer be lost.
            request.timeout = min(
                client.http.configuration.requestTimeout,
                max(1, CommandDeadline.current(orNew: seconds).remaining * 0.6))
        }
        let response: HTTPResponse
        do {
            response = try client.sendKeepingTransportErrors(request)
        } catch let error as HTTPError {
            switch error.kind {
            case .cannotConnect, .cannotResolveHost, .invalidRequest, .unsupportedScheme, .tls:
                // The patron is told what became of what they asked: nothing, anywhere, so running it again is safe.
                var unsent = CatalogClient.shelfError(error)
                unsent.hint =
                    "The request never reached the library, so nothing was changed there or here. "
                    + "Check your connection and run the same command again."
                throw unsent
            default:
                return .lost
            }
        }
        if response.status >= 500 { return .lost }
        do {
            try CatalogClient.requireSuccess(response)
        } catch let refusal as ShelfError {
            return .refused(refusal)
        }
        return .answered(response)
    }

    /// Whether an entry the library served is a loan of the patron's.
    static func isLoan(_ entry: CatalogEntry) -> Bool { entry.availability.state == .loaned }

    /// What the library says now, or an error that says nothing was done: only for the question before a request.
    /// A loan or hold shelf stored that the library's loans feed no longer lists is removed: it was stale.
    private func currentView(of entry: CatalogEntry, nothingDone: String) throws -> LibraryView {
        let view: LibraryView
        do {
            view = try askExplaining(about: entry)
        } catch let failure as ShelfError {
            if HostServices.cancelRequested {
                throw ShelfError(.cancelled, "stopped at your request; \(nothingDone)", subject: entry.id)
            }
            throw ShelfError(
                failure.kind == .permission ? .permission : .temporary,
                "the library did not answer about \(Self.quoted(entry.title)); \(nothingDone). \(failure.message)",
                subject: entry.id, hint: failure.hint ?? "Check your connection and try again.")
        }
        if case .notOnShelf = view {
            try database.deleteLoan(accountID: account.id, entryID: entry.id)
            try database.deleteHold(accountID: account.id, entryID: entry.id)
        }
        return view
    }

    /// Follows a borrow or hold link once and returns the entry the library answered with; when that answer is lost
    /// or unreadable, the entry as the library lists it when asked again. Never sends the request twice.
    /// `absenceConfirms`: whether the library's not listing a loan or hold after an unreadable answer means it did
    /// nothing (false for what its loans feed may not list, such as a hold on a physical copy).
    private func acquire(
        _ url: URL, _ entry: CatalogEntry, action: String, nothingDone: String, absenceConfirms: Bool = true
    ) throws -> CatalogEntry {
        switch try circulationRequest(url) {
        case .refused(let refusal):
            throw refusal
        case .answered(let response):
            if let answered = Self.answeredEntry(response, id: entry.id),
                Self.isLoan(answered) || [.reserved, .ready, .unavailable].contains(answered.availability.state)
            {
                // The answer is returned (and the loan or hold stored by the caller); remembering it only spares a
                // catalog look-up later.
                try? database.rememberEntries([answered], accountID: account.id, feedURL: nil)
                return answered
            }
        case .lost:
            break
        }
        guard let view = ask(about: entry) else { throw Self.unconfirmed(action, entry) }
        guard case .entry(let now) = view, Self.isLoan(now) || view.isHeld else {
            if !absenceConfirms { throw Self.unconfirmed(action, entry) }
            throw ShelfError(
                .temporary,
                "the library's answer about \(Circulation.quoted(entry.title)) could not be read, and it "
                    + "lists no loan or hold of it for you: \(nothingDone)", subject: entry.id,
                hint: "Try again later.")
        }
        return now
    }

    enum GiveBackOutcome: Equatable {
        /// The library took it back (it said so, or no longer lists it when asked again).
        case done
        /// The library refused because it has no such loan or hold: shelf's copy was stale.
        case gone(String)
        /// The library still lists it as the patron's: it refused in words, or its answer was lost and asking again
        /// found it unchanged.
        case kept(ShelfError)

        static func == (a: GiveBackOutcome, b: GiveBackOutcome) -> Bool {
            switch (a, b) {
            case (.done, .done): return true
            case (.gone(let x), .gone(let y)): return x == y
            case (.kept(let x), .kept(let y)): return x.message == y.message
            default: return false
            }
        }
    }

    /// Sends a revoke link once and learns whether the library took the loan or hold back. `stillThere` reads the
    /// library's view when shelf has to ask again.
    private func giveBack(
        _ url: URL, _ entry: CatalogEntry, action: String,
        stillThere: (LibraryView) -> Bool
    ) throws -> GiveBackOutcome {
        var answer = "could not be read"
        switch try circulationRequest(url) {
        case .answered(let response):
            // A success read whole: empty, or the entry as it is now. An entry that still lists it as the patron's
            // is no confirmation: the library is asked again below.
            if response.body.isEmpty { return .done }
            if let answered = Self.answeredEntry(response, id: entry.id) {
                if !stillThere(.entry(answered)) { return .done }
                answer = "did not say it was done"
            }
        case .refused(let refusal):
            // Refused in words. If the library has nothing to give back, what shelf stored was stale.
            if let view = ask(about: entry), !stillThere(view) { return .gone(refusal.message) }
            return .kept(refusal)
        case .lost:
            break
        }
        guard let view = ask(about: entry) else { throw Self.unconfirmed(action, entry) }
        if stillThere(view) {
            return .kept(
                ShelfError(
                    .temporary,
                    "the library's answer \(answer), and it still lists "
                        + "\(Circulation.quoted(entry.title)) as yours: nothing was given back",
                    subject: entry.id, hint: "Try again later."))
        }
        return .done
    }
}
