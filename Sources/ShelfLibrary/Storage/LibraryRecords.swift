import ShelfCore
import Foundation

/// A book the library knows about: a file on disk, a download still to come, or both.
public struct BookRecord: Equatable, Sendable {
    /// Chosen by the caller and stable across renames and re-downloads (the publication's unique identifier,
    /// or a hash of the file).
    public var id: String
    public var path: String?
    /// Where the book came from (a catalog entry, a download URL).
    public var sourceURI: String?
    public var mediaType: String
    /// The plugin that last opened it.
    public var pluginID: String?
    public var title: String
    public var authors: [String]
    /// Stored to the millisecond.
    public var addedAt: Date
    public var openedAt: Date?

    public init(id: String, path: String? = nil, sourceURI: String? = nil, mediaType: String,
                pluginID: String? = nil, title: String, authors: [String] = [], addedAt: Date = Date(),
                openedAt: Date? = nil) {
        self.id = id
        self.path = path
        self.sourceURI = sourceURI
        self.mediaType = mediaType
        self.pluginID = pluginID
        self.title = title
        self.authors = authors
        self.addedAt = addedAt
        self.openedAt = openedAt
    }
}

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
