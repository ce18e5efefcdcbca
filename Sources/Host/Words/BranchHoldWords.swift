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
}
