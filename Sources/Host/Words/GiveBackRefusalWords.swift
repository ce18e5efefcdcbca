internal import ShelfLibrary
import Foundation

// A return asked of a title not on loan, or a cancel of one not on hold (`CirculationMismatch`): nothing was sent.
// Said as what the title is at the library asked, and where it is what the patron thought.

/// A refused return or cancel, with what the last sync stored of the patron's other libraries.
struct GiveBackRefusal: PatronOutcome {
    let mismatch: CirculationMismatch
    /// Every account: hints name `--account` when there are two or more.
    let accounts: [AccountRecord]

    var sentence: String {
        let title = quoted(mismatch.entry), here = mismatch.accountTitle
        let nothing = mismatch.asked == .returnLoan ? "nothing was returned" : "nothing was cancelled"
        switch (mismatch.asked, mismatch.standing) {
        case (.returnLoan, .onHold): return "\(title) is on hold at \(here), not on loan: \(nothing)."
        case (.cancelHold, .onLoan): return "\(title) is on loan to you at \(here), not on hold: \(nothing)."
        default: return "\(title) is neither on loan nor on hold at \(here): \(nothing)."
        }
    }

    var next: NextStep? {
        var steps: [NextStep] = []
        switch (mismatch.asked, mismatch.standing) {
        case (.returnLoan, .onHold): steps.append(.cancelHold(mismatch.entry, account: account(mismatch.accountID)))
        case (.cancelHold, .onLoan): steps.append(.returnLoan(mismatch.entry, account: account(mismatch.accountID)))
        default: break
        }
        if let elsewhere = mismatch.elsewhere {
            let (there, name, page) =
                mismatch.asked == .returnLoan
                ? ("on loan", "return", "return it from My Books")
                : ("on hold", "cancel-hold", "cancel it in Reservations")
            steps.append(
                NextStep(
                    terminal: "It is \(there) at \(elsewhere.title): "
                        + "`shelf \(name) \(mismatch.entry.id)\(account(elsewhere.id).map { " --account \($0)" } ?? "")`.",
                    browser: "It is \(there) at \(elsewhere.title): \(page)."))
        } else if mismatch.standing == .neither {
            steps.append(.sync)
        }
        guard !steps.isEmpty else { return nil }
        return NextStep(
            terminal: steps.compactMap(\.terminal).joined(separator: " "),
            browser: steps.compactMap(\.browser).joined(separator: " "))
    }

    /// The account to name in a command: only when there are several.
    private func account(_ id: String) -> String? { accounts.count > 1 && !id.isEmpty ? id : nil }

    /// The refusal as the error `face` shows (exit 64: the patron named the wrong thing).
    func error(for face: Face) -> ShelfError {
        let words = words(for: face)
        return ShelfError(.usage, words.sentence, subject: mismatch.entry.id, hint: words.hint)
    }

    /// `mismatch` with where else the patron has the title the way they asked, by the last sync; then as an error.
    static func error(_ mismatch: CirculationMismatch, database: LibraryDatabase, face: Face) -> ShelfError {
        let accounts = (try? database.accounts()) ?? []  // Not read: the hints name no account, which is still true.
        var found = mismatch
        let id = mismatch.entry.id
        // What the last sync stored of the other accounts; unread, the hint names none of them.
        let other: String? =
            mismatch.asked == .returnLoan
            ? (try? database.loans())?.first { $0.entry.id == id && $0.accountID != mismatch.accountID }?.accountID
            : (try? database.holds())?.first { $0.entry.id == id && $0.accountID != mismatch.accountID }?.accountID
        if let other { found.elsewhere = (other, accounts.first { $0.id == other }?.title ?? other) }
        return GiveBackRefusal(mismatch: found, accounts: accounts).error(for: face)
    }
}

extension NextStep {
    /// Return the loan (at `account` when the patron has several libraries).
    static func returnLoan(_ entry: CatalogEntry, account: String?) -> NextStep {
        NextStep(
            terminal: "To return it: `shelf return \(entry.id)\(account.map { " --account \($0)" } ?? "")`.",
            browser: "To return it, press Return in My Books.")
    }

    /// Cancel the hold (at `account` when the patron has several libraries).
    static func cancelHold(_ entry: CatalogEntry, account: String?) -> NextStep {
        NextStep(
            terminal: "To cancel the hold: `shelf cancel-hold \(entry.id)\(account.map { " --account \($0)" } ?? "")`.",
            browser: "To cancel the hold, press Cancel hold in Reservations.")
    }

    /// Ask the library what it has.
    static var sync: NextStep {
        NextStep(
            terminal: "`shelf sync` shows what the library has.",
            browser: "My Books and Reservations show what the library has after its next sync.")
    }
}
