import Foundation
import Readium

/// A bookmark: a Readium Locator with a text quote, so that it lands on the same passage in another edition.
public struct Bookmark: Equatable, Sendable {
    public var id: Int64
    public var bookID: String
    public var locator: Locator
    public var note: String?
    public var createdAt: Date

    public init(id: Int64 = 0, bookID: String, locator: Locator, note: String? = nil, createdAt: Date = Date()) {
        self.id = id
        self.bookID = bookID
        self.locator = locator
        self.note = note
        self.createdAt = createdAt
    }
}
