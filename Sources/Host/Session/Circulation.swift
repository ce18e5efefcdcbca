internal import ShelfLibrary
import Foundation

/// Borrowing, holds and returns for one library account, as a front end uses them: find the title the patron
/// names, ask the library about it again, borrow, reserve, return, cancel a hold. `LibrarySession.circulation(account:)`
/// makes one and `LibrarySession.download(_:with:progress:)` downloads through it; every call is the library's own
/// (`ShelfLibrary.Circulation`), forwarded.
///
/// Safe to call from several threads at once: it holds only constants; its catalog client's HTTP calls each run on the
/// calling thread with their own libcurl handle, and the database serialises its calls under its lock. (The browser
/// app makes one per request all the same: each request may name another account.)
public final class Circulation {
    public typealias Naming = CirculationNaming
    public typealias BorrowOutcome = ShelfValues.BorrowOutcome
    public typealias ReserveOutcome = ShelfValues.ReserveOutcome
    public typealias DownloadOutcome = ShelfValues.DownloadOutcome

    let circulation: ShelfLibrary.Circulation

    init(_ circulation: ShelfLibrary.Circulation) { self.circulation = circulation }

    /// The account it borrows as (an account with no id: catalogs browsed without one).
    public var account: AccountRecord { circulation.account }

    /// The account a command in a hint must name: this one's id when the patron has several libraries (a command
    /// without `--account` acts at the one in use), else nil.
    public var accountToName: String? {
        // Accounts that cannot be read name none: the hint is then as it was, for the account in use.
        let count = (try? circulation.database.accounts().count) ?? 0
        return count > 1 && !account.id.isEmpty ? account.id : nil
    }

    /// The title `words` name among those shelf has seen of this account, as `naming` allows (see `Naming`).
    public func entry(_ words: String, naming: Naming = .reading) throws -> CatalogEntry {
        try circulation.entry(words, naming: naming)
    }

    /// The entry as the library says now; the stored one when it cannot be asked.
    public func refreshed(_ entry: CatalogEntry) -> CatalogEntry { circulation.refreshed(entry) }

    /// The entry as the library says now, or nil when it could not be asked or did not answer with it.
    public func refreshedIfAnswered(_ entry: CatalogEntry) -> CatalogEntry? { circulation.refreshedIfAnswered(entry) }

    /// A title as the patron is shown it: the library's word of now, or what shelf saw before and how old it is.
    public struct TitleNow {
        public var entry: CatalogEntry
        /// False when the library did not answer just now (a title without a link of its own is never asked).
        public var answered: Bool
        /// When the entry shown was last seen at the library (for an entry not answered just now).
        public var seenAt: Date?
        /// The library answered that it no longer has the title: nothing may be borrowed or reserved from it.
        public var gone = false

        /// The note a face shows when this is not the library's word of now; nil when it is.
        public var note: String? {
            if gone { return Sighting.gone(entry.title) }
            return answered ? nil : Sighting.notAnswered(seenAt: seenAt)
        }
    }

    /// Asks the library about `entry` now (`shelf book`, the browser's details): never the stored availability
    /// passed off as now.
    public func now(_ entry: CatalogEntry) -> TitleNow {
        switch circulation.lookUp(entry) {
        case .entry(let fresh): return TitleNow(entry: fresh, answered: true)
        case .gone: return TitleNow(entry: entry, answered: true, gone: true)
        case .noAnswer: break
        }
        // Unknown age is said without one: the note still says it is not the library's word of now.
        let seenAt = (try? circulation.database.entrySeenAt(accountID: account.id, entryID: entry.id)) ?? nil
        return TitleNow(entry: entry, answered: entry.selfLink == nil, seenAt: seenAt)
    }

    /// What the patron may do with the title as `now` has it, with the holds of it shelf keeps at this account (a
    /// hold on a physical copy is picked up at its branch, never borrowed). Holds that cannot be read leave the
    /// library's word alone.
    public func offer(_ now: TitleNow) -> TitleOffer {
        let holds = (try? circulation.holds(of: now.entry.id)) ?? []
        return TitleOffer(now.entry, holds: holds, openable: circulation.openable, gone: now.gone)
    }

    /// Borrows the title if a copy is free; never places a hold.
    public func borrow(_ entry: CatalogEntry) throws -> BorrowOutcome { try circulation.borrow(entry) }

    /// Places a hold (on a physical copy at `branch` when given) when no copy is free.
    public func reserve(_ entry: CatalogEntry, branch: String? = nil) throws -> ReserveOutcome {
        try circulation.reserve(entry, branch: branch)
    }

    /// Returns the patron's loan through the loan's own revoke link; a title on hold, or neither, is refused
    /// (nothing sent) with what it is and where.
    /// The refusal's hint is in `face`'s terms.
    public func returnLoan(_ entry: CatalogEntry, face: Face = .terminal) throws {
        do { try circulation.returnLoan(entry) } catch let mismatch as CirculationMismatch {
            throw GiveBackRefusal.error(mismatch, database: circulation.database, face: face)
        }
    }

    /// Cancels the patron's hold that `hold` names through that hold's own revoke link; a title on loan, or neither,
    /// is refused. Of a title with two or more holds (its own and a branch's) one must be named: an unnamed cancel, or
    /// one naming a hold the patron does not have, is refused (exit 64) with the choices, nothing sent.
    /// A hold on a physical copy at a branch the library gives no revoke link for is refused, nothing sent: the
    /// branch is asked (its ILS may keep holds the circulation manager cannot cancel).
    public func cancelHold(_ entry: CatalogEntry, hold: HoldChoice = .unnamed, face: Face = .terminal) throws {
        let held = try circulation.holds(of: entry.id)
        let chosen: HoldRecord?
        switch hold {
        case .unnamed:
            if held.count > 1 { throw BranchHoldWords.whichHold(entry, held, named: nil, account: accountToName) }
            chosen = held.first
        case .own:
            chosen = held.first { $0.branch == nil }
            if chosen == nil, !held.isEmpty {
                throw BranchHoldWords.whichHold(entry, held, named: .own, account: accountToName)
            }
        case .branch(let name):
            chosen = held.first { $0.branch?.caseInsensitiveCompare(name) == .orderedSame }
            if chosen == nil, !held.isEmpty {
                throw BranchHoldWords.whichHold(entry, held, named: hold, account: accountToName)
            }
        }
        if let chosen, !BranchHoldWords.canCancel(chosen) { throw BranchHoldWords.cannotCancel(chosen) }
        var branch = chosen?.branch
        if chosen == nil, case .branch(let name) = hold { branch = name }
        do { try circulation.cancelHold(entry, branch: branch) } catch let mismatch as CirculationMismatch {
            throw GiveBackRefusal.error(mismatch, database: circulation.database, face: face)
        }
    }
}
