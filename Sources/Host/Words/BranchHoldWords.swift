internal import ShelfLibrary
import Foundation

// A hold on a physical copy at a branch (seeds 002/003), in the holds listing of both faces: what it is ("Physical
// copy at B", never the e-book's format), that shelf keeps it when the library's list no longer shows it, and why
// Cancel is not offered when the library gives no way to cancel it.

enum BranchHoldWords {
    /// What the hold is for: the branch's physical copy, or the title's format (an e-book or audiobook hold).
    static func kind(_ hold: HoldRecord) -> String {
        hold.branch.map { "Physical copy at \($0)" } ?? hold.entry.format.words
    }

    /// Said of a branch hold the library's own list does not show: shelf keeps it from the reserve, since many
    /// libraries list only e-book holds. A hold the loans feed lists comes with its revoke link; one without was
    /// never listed (or no longer is). Nil otherwise.
    static func kept(_ hold: HoldRecord) -> String? {
        guard hold.branch != nil, hold.entry.revokeLink == nil else { return nil }
        return "kept by shelf: your library's list does not show it"
    }

    /// Whether Cancel is offered: only where the library gives a way, its revoke link. An e-book hold without one
    /// keeps Cancel: the library is asked again for its link (`Circulation.cancelHold`); a branch's hold is not.
    static func canCancel(_ hold: HoldRecord) -> Bool {
        hold.branch == nil || hold.entry.revokeLink != nil
    }

    /// The refusal of a cancel the library gives no way to make: nothing is sent (exit 69), ask the branch.
    static func cannotCancel(_ hold: HoldRecord) -> ShelfError {
        let branch = hold.branch ?? "the branch"
        return ShelfError(
            .unavailable,
            "your library gives no way to cancel the hold on a physical copy of \(quoted(hold.entry)) at \(branch) "
                + "from here: nothing was cancelled.",
            subject: hold.entry.id, hint: "Ask \(branch) to cancel it.")
    }

    /// The refusal of a cancel that does not say which of a title's holds it means (`named` nil), or names one the
    /// patron does not have: nothing is sent (exit 64), and each hold is offered with the command or row that cancels it.
    static func whichHold(
        _ entry: CatalogEntry, _ holds: [HoldRecord], named: HoldChoice?, account: String?
    ) -> ShelfError {
        let title = quoted(entry)
        let which = holds.map { $0.branch.map { "a physical copy at \($0)" } ?? "the \($0.entry.format.words) hold" }
        let sentence: String
        switch named {
        case .own?: sentence = "you have no \(entry.format.words) hold on \(title)"
        case .branch(let name)?: sentence = "you have no hold on a physical copy of \(title) at \(name)"
        default: sentence = "you have \(holds.count) holds on \(title) and did not say which to cancel"
        }
        let command = "shelf cancel-hold \(entry.id)" + (account.map { " --account \($0)" } ?? "")
        let commands = holds.map { hold in
            "`\(command) " + (hold.branch.map { "--branch \"\($0)\"" } ?? "--digital") + "` cancels "
                + (hold.branch.map { "the physical copy at \($0)" } ?? "the \(hold.entry.format.words) hold")
        }
        return ShelfError(
            .usage,
            sentence + " (" + which.joined(separator: " and ") + "): nothing was cancelled.", subject: entry.id,
            next: NextStep(
                terminal: commands.joined(separator: "; ") + ".",
                browser: "In Reservations, press Cancel hold on the row of the hold to cancel."))
    }
}
