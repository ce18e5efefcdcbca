import Foundation
import Readium

/// Where the listener is in each audiobook, in the library database: the book's row, and its
/// position as a Readium Locator on the track (`#t=` fragment, progression and total progression).
public final class PlaybackPositionStore: @unchecked Sendable {
    public let database: LibraryDatabase
    public init(database: LibraryDatabase) { self.database = database }

    /// A stable id: the manifest's identifier, else the file's absolute path or URL.
    public static func bookID(for book: AudioBook) -> String {
        if let id = book.manifest.metadata["identifier"]?.string, !id.isEmpty { return id }
        let uri = book.input.uri
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") { return "audio:" + uri }
        return "audio:" + URL(fileURLWithPath: uri).standardizedFileURL.path
    }

    public func save(book: AudioBook, timeline: Timeline, at global: Int64) throws {
        let id = Self.bookID(for: book)
        if try database.book(id: id) == nil {
            try database.upsertBook(BookRecord(id: id, path: book.input.path, sourceURI: book.input.uri,
                                               mediaType: book.input.mediaType ?? "application/audiobook+json",
                                               pluginID: book.plugin.descriptor.id, title: book.title,
                                               authors: book.manifest.authors, openedAt: Date()))
        }
        let (t, offset) = timeline.locate(global)
        let track = book.tracks[min(t, book.tracks.count - 1)]
        let seconds = timeline.seconds(offset)
        let length = timeline.lengths.indices.contains(t) ? timeline.lengths[t] : 0
        let locator = Locator(href: track.href, type: track.type ?? "audio/mpeg", title: track.title,
                              locations: .init(progression: length > 0 ? Double(offset) / Double(length) : 0,
                                               totalProgression: timeline.totalFrames > 0 ? Double(global) / Double(timeline.totalFrames) : 0,
                                               fragments: ["t=" + String(format: "%.3f", seconds)]))
        try database.savePosition(ReadingPosition(bookID: id, locator: locator.jsonString()))
    }

    /// The saved position on this timeline, in global frames; nil when there is none.
    public func restore(book: AudioBook, timeline: Timeline) -> Int64? {
        guard let saved = try? database.position(bookID: Self.bookID(for: book)),
              let locator = try? Locator.parse(saved.locator) else { return nil }
        guard let t = book.tracks.firstIndex(where: { $0.href == Chapters.stripFragment(locator.href) }) else { return nil }
        let seconds = locator.locations.fragments?.compactMap { Chapters.fragmentSeconds("#" + $0) }.first
            ?? (locator.locations.progression ?? 0) * timeline.seconds(timeline.lengths[t])
        return timeline.global(track: t, offset: timeline.frames(seconds))
    }
}
