import Foundation

// What a title offers, in the patron's words: its availability as the patron's own holds make it (a physical copy at
// a branch is picked up there, seed 003), and the commands `shelf book` and `shelf holds` name for each action the
// host offers (`TitleOffer`); the browser draws a button for each action instead.

extension TitleOffer {
    /// The availability as the patron reads it: the library's words, or, for a hold on a physical copy, where that copy
    /// is ("ready for pick-up at Central Library until Feb 1, 2099"), never "ready to borrow".
    public var availabilityWords: String {
        guard let hold = branchHold, let branch = hold.branch else { return entry.availability.words }
        if entry.availability.state == .ready { return Self.pickUp(at: branch, until: hold.endsAt) }
        return "\(entry.availability.words), a physical copy at \(branch)"
    }

    /// "ready for pick-up at B until DAY": a hold on a physical copy that came in (`Ready` to begin a row's line).
    static func pickUp(at branch: String, until: Date?, ready: String = "ready") -> String {
        "\(ready) for pick-up at \(branch)" + (until.map { " until \(localDay($0))" } ?? "")
    }

    /// A row of Reservations or `shelf holds` for a hold on a physical copy that came in: "Ready for pick-up at B
    /// until DAY"; nil for any other hold.
    public static func pickUp(_ hold: HoldRecord) -> String? {
        guard hold.isReady, let branch = hold.branch else { return nil }
        return pickUp(at: branch, until: hold.endsAt, ready: "Ready")
    }

    /// The commands for the actions offered, one line each as `shelf book` prints them; each names `account` when the
    /// patron has several libraries (`Circulation.accountToName`).
    public func commands(account: String?) -> [String] {
        let id = entry.id
        let at = NextStep.option(account)
        var lines: [String] = []
        if let branch = branchHold?.branch, entry.availability.state == .ready {
            lines.append("Pick it up at \(branch): the hold is on a physical copy, so there is nothing to borrow here.")
        }
        if actions.contains(.returnLoan) {
            lines.append("On loan: shelf download \(id)\(at), shelf return \(id)\(at)")
        } else if actions.contains(.download) {
            lines.append("Free to download: shelf download \(id)\(at)")
        }
        if actions.contains(.borrow) { lines.append("Borrow it: shelf borrow \(id)\(at)") }
        if actions.contains(.reserve) { lines.append("Reserve it: shelf reserve \(id)\(at)") }
        if actions.contains(.cancelHold) {
            let which: String
            switch cancelChoice {
            case .branch(let name): which = " --branch \"\(name)\""
            case .own: which = " --digital"
            case .unnamed: which = ""
            }
            lines.append("Cancel the hold: shelf cancel-hold \(id)\(at)\(which)")
        }
        return lines
    }
}
