internal import ShelfReader
import Foundation
import Readium
internal import ShelfPlayback
internal import ShelfPlugins

/// A book's file opened by the plugin that reads it, as a front end reads it outside a reading session: its
/// manifest, resources, positions, search, and a reading-order item rendered (`shelf info`, `render`, `positions`,
/// `search`, `resource`, `cover`; the browser's reader). The plugin's handle stays behind it, in the plugins
/// subsystem's publication.
///
/// Not for several threads at once: a plugin's handle is used by one thread at a time (plugin.h), so a front end
/// that shares one keeps it under a lock of its own (the browser's reader does).
public final class BookFile {
    let publication: Publication

    init(_ publication: Publication) { self.publication = publication }

    /// The file it was opened from.
    public var path: String { publication.input.path }
    /// The Readium Web Publication Manifest the plugin wrote, read and as its bytes.
    public var manifest: Manifest { publication.manifest }
    public var manifestJSON: Data { publication.manifestJSON }
    /// An eBook or an audiobook (by its reading order).
    public var format: PublicationFormat { publication.format }
    /// "eBook", "Audiobook".
    public var formatInWords: String { publication.formatInWords }

    /// The table of contents as `shelf toc --json` prints it: an audiobook's entries carry their length as
    /// `duration`; a book without one lists its reading order.
    public var tableOfContents: [Link] {
        let manifest = publication.manifest
        return manifest.toc.map { isAudiobook ? ChapterSpans.annotatedTOC(manifest) : $0 } ?? manifest.readingOrder
    }

    /// Where each entry of an audiobook's table of contents starts on the book's timeline and how long it lasts,
    /// in seconds, in the table's own order (depth first); nil for an entry that names no track. Empty for an eBook,
    /// a book without a table of contents, or one whose tracks' lengths are not all known.
    public var tableOfContentsSpans: [(start: Double, duration: Double)?] {
        guard isAudiobook, publication.manifest.toc != nil else { return [] }
        return ChapterSpans.of(publication.manifest).map { $0.map { ($0.start, $0.duration) } }
    }

    private var isAudiobook: Bool { format == .audiobook }

    /// The resource at `href` (as in the manifest), decoded.
    public func resource(_ href: String) throws -> Data { try publication.resource(href) }

    /// The book's positions (pages that do not change with the reader's settings), as locators.
    public func positions() throws -> [Locator] { try publication.positions() }

    /// Where `query` is found, at most `limit` places.
    public func search(_ query: String, limit: Int = 100) throws -> [Locator] {
        try publication.search(query, limit: limit)
    }

    /// Renders the item at `locator` (where a reader opens the book when nil) with `settings`.
    public func render(at locator: Locator?, with settings: RenderRequest) throws -> RenderedItem {
        try publication.render(at: locator, settings: ReadiumJSON.encode(settings))
    }
}

extension Shelf {
    /// Sniffs, routes and opens a local file, for reading it outside the shelf. A name that is no file (and no path)
    /// is a book on the shelf, found as `read` and `play` find one (a title or a unique part of it, a library id, a
    /// download's catalog ID), so a patron who listens by title can see the chapters `play --chapter` takes.
    public func openFile(_ target: String) throws -> BookFile {
        do {
            return BookFile(try open(target))
        } catch let missing as ShelfError
            where missing.kind == .noInput && !target.contains("/")
            && !FileManager.default.fileExists(atPath: target)
        {
            // Without a shelf to look on (no folders, a database that will not open), the missing file is what to say.
            guard let bookshelf = try? bookshelf() else { throw missing }
            let book: ShelfBook
            do {
                book = try bookshelf.find(target)
            } catch let notOnShelf as ShelfError where notOnShelf.kind == .noInput {
                throw missing
            }
            return try bookshelf.openFile(book)
        }
    }
}

extension Bookshelf {
    /// Opens a book on the shelf's file with the plugin that added it (see `open`).
    public func openFile(_ book: ShelfBook) throws -> BookFile { BookFile(try reader.open(book)) }
}

extension ReadingSession {
    /// The file this session reads.
    public var file: BookFile { BookFile(session.publication) }
}
