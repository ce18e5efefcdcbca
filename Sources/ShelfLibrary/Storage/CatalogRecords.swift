import ShelfCore
import Foundation

/// A feed body kept for conditional requests.
public struct CachedFeed: Sendable {
    public var url: String
    public var validators: HTTPValidators
    public var contentType: String?
    public var body: Data
    public var fetchedAt: Date
}

extension LoanRecord {
    /// As the database gives it back: times to the millisecond.
    var asStored: LoanRecord {
        var loan = self
        loan.startsAt = startsAt.map(\.storedPrecision)
        loan.endsAt = endsAt.map(\.storedPrecision)
        loan.updatedAt = updatedAt.storedPrecision
        return loan
    }
}

extension HoldRecord {
    /// As the database gives it back: times to the millisecond.
    var asStored: HoldRecord {
        var hold = self
        hold.startsAt = startsAt.map(\.storedPrecision)
        hold.endsAt = endsAt.map(\.storedPrecision)
        hold.updatedAt = updatedAt.storedPrecision
        return hold
    }
}

private extension Date {
    var storedPrecision: Date { Date(databaseMilliseconds: databaseMilliseconds) }
}

/// Where a loan or hold falls in the ORDER BY of `loans()` and `holds()`: a rank (ready holds first), a number with
/// NULL last (the end of a loan, a hold's place in the queue), the title as COLLATE NOCASE compares it (bytes, with
/// only A-Z folded), then the identifier for ties. Made once per record, not in every comparison of a sort.
struct ShelfOrderKey: Comparable {
    let rank: Int
    let order: Int64?
    let title: [UInt8]
    let id: String

    init(rank: Int, order: Int64?, title: String, id: String) {
        self.rank = rank
        self.order = order
        self.title = title.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        self.id = id
    }

    static func < (a: ShelfOrderKey, b: ShelfOrderKey) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        if (a.order == nil) != (b.order == nil) { return b.order == nil }
        if let x = a.order, let y = b.order, x != y { return x < y }
        if a.title != b.title { return a.title.lexicographicallyPrecedes(b.title) }
        return a.id < b.id
    }
}
