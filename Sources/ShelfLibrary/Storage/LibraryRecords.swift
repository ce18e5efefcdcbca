import ShelfCore
import Foundation

/// Where the patron is in a book: a Readium Locator, kept as the JSON text the plugin produced.
public struct ReadingPosition: Equatable, Sendable {
    public var bookID: String
    public var locator: String
    public var updatedAt: Date

    public init(bookID: String, locator: String, updatedAt: Date = Date()) {
        self.bookID = bookID
        self.locator = locator
        self.updatedAt = updatedAt
    }
}

extension Date {
    /// Milliseconds since 1970, the unit of every time column.
    package var databaseMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    package init(databaseMilliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(databaseMilliseconds) / 1000)
    }
}
