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

    public init(
        id: String, path: String? = nil, sourceURI: String? = nil, mediaType: String,
        pluginID: String? = nil, title: String, authors: [String] = [], addedAt: Date = Date(),
        openedAt: Date? = nil
    ) {
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
