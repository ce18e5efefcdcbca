import Foundation

/// Where a title stands for this patron, as the server said it (OPDS `opds:availability`, `opds:holds`,
/// `opds:copies`, or their OPDS 2 properties), inferred the way Palace clients do.
public struct Availability: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable {
        /// A copy can be borrowed now.
        case available
        /// Every copy is out; a hold can be placed.
        case unavailable
        /// The patron is in the holds queue.
        case reserved
        /// The patron's hold came in: borrow it before `until`.
        case ready
        /// The patron has it on loan.
        case loaned
        /// Free for anyone, no loan needed.
        case openAccess = "open-access"
        /// The server said nothing usable.
        case unknown
    }

    public var state: State
    public var since: Date?
    public var until: Date?
    public var copiesTotal: Int?
    public var copiesAvailable: Int?
    public var holdsTotal: Int?
    public var holdPosition: Int?

    public init(
        state: State, since: Date? = nil, until: Date? = nil, copiesTotal: Int? = nil,
        copiesAvailable: Int? = nil, holdsTotal: Int? = nil, holdPosition: Int? = nil
    ) {
        self.state = state
        self.since = since
        self.until = until
        self.copiesTotal = copiesTotal
        self.copiesAvailable = copiesAvailable
        self.holdsTotal = holdsTotal
        self.holdPosition = holdPosition
    }

    /// Whether `shelf borrow` can get a copy now (a ready hold counts).
    public var canBorrowNow: Bool { state == .available || state == .ready || state == .openAccess }

    /// The availability in words, as the patron reads it: "available", "2 of 5 copies available",
    /// "no copy available, 3 waiting",
    /// "on hold, position 3 of 12", "ready to borrow until Dec 3, 2026".
    public var words: String {
        switch state {
        case .available:
            if let total = copiesTotal, let free = copiesAvailable, total > 0 {
                return "\(free) of \(Plural.count(total, "copy", "copies")) available"
            }
            return "available"
        case .unavailable:
            var text: String
            if let total = copiesTotal, total > 0 {
                text = "\(copiesAvailable ?? 0) of \(Plural.count(total, "copy", "copies")) available"
            } else {
                // A library that counts no copies (a title lent only through holds) has no "0 of 0 copies" to say:
                // the queue is what tells the patron how long the wait is.
                text = "no copy available"
                if holdsTotal == 0 { text += ", no one waiting" }
            }
            if let holds = holdsTotal, holds > 0 { text += ", \(holds) waiting" }
            return text
        case .reserved:
            switch (holdPosition, holdsTotal) {
            case let (position?, total?) where total >= position: return "on hold, position \(position) of \(total)"
            case let (position?, _): return "on hold, position \(position)"
            default: return "on hold"
            }
        case .ready:
            return until.map { "ready to borrow until \(localDay($0))" } ?? "ready to borrow"
        case .loaned:
            return until.map { "on loan until \(localDay($0))" } ?? "on loan"
        case .openAccess:
            return "available (open access)"
        case .unknown:
            return "availability unknown"
        }
    }
}
