import Foundation

/// What the patron may do with a title now, worked out in one place from its state as the host knows it: the
/// library's availability, the patron's holds of it that shelf keeps, and whether an installed plugin opens it. Both
/// faces offer these and only these: `shelf book` and `shelf holds` name their commands (`TitleOfferWords`), the
/// details page and Reservations draw their buttons from the documents' `actions`.
///
/// A hold on a physical copy at a branch is collected at that branch (seed 003: "the physical title copy is
/// available for pick-up"): when the library's "ready" is that hold's (shelf keeps no hold on the title's own copies),
/// nothing is offered to borrow, since the library's borrow lends the e-book, not the copy held.
public struct TitleOffer: Sendable, Equatable {
    /// One thing a face offers for a title; the raw values are the browser's (`/api/book/ACTION`, Read and Listen
    /// downloading first).
    public enum Action: String, Sendable, Encodable, CaseIterable {
        case borrow, reserve, download, read, listen
        case cancelHold = "cancel-hold"
        case returnLoan = "return"
    }

    public let entry: CatalogEntry
    public let actions: [Action]
    /// The hold on a physical copy the title's state is about (the title has no hold of its own here), else nil.
    public let branchHold: HoldRecord?
    /// Which hold Cancel means: the branch's, the title's own when a branch's is held beside it, else the only one.
    public let cancelChoice: HoldChoice
    /// The branches whose copy the patron holds already: not offered to reserve again (the library would refuse).
    public let heldBranches: [String]

    /// `entry` as the library says now, `holds` the patron's holds of it at the same account, `gone` when the library
    /// no longer has the title (nothing is offered from what shelf saw of it).
    public init(_ entry: CatalogEntry, holds: [HoldRecord], openable: Set<String>, gone: Bool = false) {
        self.entry = entry
        let own = holds.first { $0.branch == nil }
        let state = entry.availability.state
        // The library's hold state is a branch's only when shelf knows no hold on the title's own copies.
        let branch =
            own == nil && (state == .ready || state == .reserved)
            ? holds.first { $0.branch != nil && $0.isReady == (state == .ready) } ?? holds.first { $0.branch != nil }
            : nil
        branchHold = branch
        heldBranches = holds.compactMap(\.branch)
        cancelChoice =
            branch.flatMap { $0.branch.map(HoldChoice.branch) }
            ?? (own != nil && holds.contains { $0.branch != nil } ? .own : .unnamed)
        let canBorrow = entry.borrowLink != nil
        let cancel: [Action] = branch.map { BranchHoldWords.canCancel($0) } ?? true ? [.cancelHold] : []
        switch gone ? .unknown : state {
        case .loaned:
            let open: Action =
                !entry.isSupported(by: openable) ? .download : entry.format == .audiobook ? .listen : .read
            actions = [open, .returnLoan]
        case .ready where branch != nil: actions = cancel
        // The patron's own hold came in: borrowing asks the library again (its entry of now has the link to borrow).
        case .ready: actions = [.borrow] + cancel
        case .reserved: actions = cancel
        case .openAccess: actions = [.download]
        case .available: actions = canBorrow ? [.borrow] : []
        case .unavailable: actions = canBorrow ? [.reserve] : []
        case .unknown: actions = []
        }
    }

    /// The row of one hold in Reservations or `shelf holds`: what that hold alone allows.
    public init(hold: HoldRecord, openable: Set<String>) {
        self.init(hold.entry, holds: [hold], openable: openable)
    }

    public var canBorrow: Bool { actions.contains(.borrow) }
    public var canReserve: Bool { actions.contains(.reserve) }
}
