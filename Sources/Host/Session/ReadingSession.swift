internal import ShelfReader
import Foundation
import Readium
import ShelfValues

/// A book opened for reading in pages, as a front end keeps one open (the terminal reader, the browser's reader): its
/// pages at one width, its table of contents, search. The reader subsystem's session does the work and keeps the
/// publication (its file is `file`, a BookFile); this holds it and forwards what the front ends call.
///
/// Not for several threads at once: it keeps pages as they are cut and a plugin's handle, which one thread uses at a
/// time (plugin.h); a front end that shares one keeps it under a lock of its own (the browser's reader does).
public final class ReadingSession {
    let session: ShelfReader.ReadingSession

    init(_ session: ShelfReader.ReadingSession) { self.session = session }

    public typealias Page = ReadingPage
    public typealias Resolution = LocatorResolution
    public typealias TOCEntry = ShelfValues.TOCEntry
    public typealias SearchHit = PageSearchHit

    public var book: ShelfBook { session.book }
    /// The book's positions: page N is position N.
    public var positions: [Locator] { session.positions }
    public var width: Int { session.width }
    public var pageCount: Int { session.pageCount }

    public func page(_ number: Int) throws -> Page { try session.page(number) }

    /// Where a reader opens the book: chapter one, as the plugin decides from what the book says.
    public func startPage() throws -> Int { try session.startPage() }

    /// Every entry of the table of contents with its page, numbered from 1 as `--toc N` takes them.
    public var tableOfContents: [TOCEntry] { session.tableOfContents }

    /// The page of table-of-contents entry `number` (from 1).
    public func tocPage(_ number: Int) throws -> Int { try session.tocPage(number) }

    /// Hit `number` (from 1) of `query`, and the page that shows it.
    public func searchHit(_ query: String, number: Int) throws -> SearchHit {
        try session.searchHit(query, number: number)
    }

    /// Every hit of `query` (the first 100), each with the page that shows it, in the book's order.
    public func searchHits(_ query: String) throws -> [SearchHit] { try session.searchHits(query) }
}
