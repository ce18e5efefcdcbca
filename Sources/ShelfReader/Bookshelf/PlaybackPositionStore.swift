import ShelfLibrary
import ShelfCore
import Foundation
import Readium
import ShelfPlayback
import ShelfValues

/// Where the listener is in each audiobook, in the library database: the book's row, and its
/// position as a Readium Locator on the track (`#t=` fragment, progression and total progression).
public final class PlaybackPositionStore: PlaybackPositionSaving, Sendable {
    public let database: LibraryDatabase
    /// The book's id on the shelf, when the book was found there: its position and progress are kept on that row,
    /// not on a second one made for the file.
    public let shelfID: String?
    public init(database: LibraryDatabase, shelfID: String? = nil) {
        self.database = database
        self.shelfID = shelfID
    }

    /// The id the position is kept under: the shelf's, else the book's own (`bookID(for:)`).
    public func id(for book: AudioBook) -> String { shelfID ?? Self.bookID(for: book) }

    /// A stable id: the manifest's identifier, else the file's absolute path or URL.
    public static func bookID(for book: AudioBook) -> String {
        if let id = book.manifest.metadata["identifier"]?.string, !id.isEmpty { return id }
        let uri = book.input.uri
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return "audio:" + uri }
        return "audio:" + URL(fileURLWithPath: uri).standardizedFileURL.path
    }

    public func save(book: AudioBook, timeline: Timeline, at global: Int64) throws {
        let id = id(for: book)
        if try database.book(id: id) == nil {
            try database.upsertBook(
                BookRecord(
                    id: id, path: book.input.path, sourceURI: book.input.uri,
                    mediaType: book.input.mediaType ?? "application/audiobook+json",
                    pluginID: book.plugin.descriptor.id, title: book.title,
                    authors: book.manifest.authors, openedAt: Date()))
        }
        let (t, offset) = timeline.locate(global)
        let track = book.tracks[min(t, book.tracks.count - 1)]
        let seconds = timeline.seconds(offset)
        let length = timeline.lengths.indices.contains(t) ? timeline.lengths[t] : 0
        let locator = Locator(
            href: track.href, type: track.type ?? "audio/mpeg", title: track.title,
            locations: .init(
                progression: length > 0 ? Double(offset) / Double(length) : 0,
                totalProgression: timeline.totalFrames > 0 ? Double(global) / Double(timeline.totalFrames) : 0,
                // Microseconds: the same frame comes back at any sample rate.
                fragments: ["t=" + String(format: "%.6f", seconds)]))
        try database.saveListeningPlace(
            bookID: id, locator: locator.jsonString(), seconds: timeline.seconds(global),
            duration: timeline.isLengthKnown ? timeline.duration : nil)
    }

    /// When the place was last saved (how long ago listening stopped, for the seconds replayed on resuming); nil
    /// when there is none.
    public func savedAt(book: AudioBook) throws -> Date? {
        try (database.position(bookID: id(for: book)) ?? database.position(bookID: Self.bookID(for: book)))?.updatedAt
    }

    /// The saved position on this timeline, in global frames; nil when there is none. A position that cannot be read
    /// (the database failing, a locator that does not parse) is an error, never "none": playing from the start
    /// would save over the place the patron had.
    public func restore(book: AudioBook, timeline: Timeline) throws -> Int64? {
        // A place saved before the book was found on the shelf is under the book's own id.
        guard
            let saved = try database.position(bookID: id(for: book))
                ?? database.position(bookID: Self.bookID(for: book))
        else { return nil }
        let locator: Locator
        do {
            locator = try Locator.parse(saved.locator)
        } catch {
            throw ShelfError(
                .badData, "the saved listening position of “\(book.title)” cannot be read (\(error))",
                subject: database.path,
                hint: "Choose where to start with --from TIME or --chapter N; the next save replaces it.")
        }
        guard let t = book.tracks.firstIndex(where: { $0.href == Chapter.stripFragment(locator.href) }) else {
            return nil
        }
        let seconds =
            locator.locations.fragments?.compactMap { Chapters.fragmentSeconds("#" + $0) }.first
            ?? (locator.locations.progression ?? 0) * timeline.seconds(timeline.lengths[t])
        return timeline.global(track: t, offset: timeline.frames(seconds))
    }
}
