import Foundation
import Readium

/// Where `shelf read` (and the browser's reader) goes in a book (`BookReader.Move`).
public enum ReadingMove: Equatable, Sendable {
    /// The saved page (or, on a first open, where a reader opens the book).
    case resume
    case next
    case previous
    case goTo(Int)
    case tableOfContents(Int)
    case search(String, hit: Int)
    case bookmark(Int64)
}

/// A page read: the book, the page, what the patron should know, and the search hit shown (`BookReader.Result`).
public struct ReadingResult: Sendable {
    public let book: ShelfBook
    public let page: ReadingPage
    /// Something the patron should know: the last page, a place not found in a new edition.
    public let notes: [String]
    public let hit: Locator?

    public init(book: ShelfBook, page: ReadingPage, notes: [String], hit: Locator?) {
        self.book = book
        self.page = page
        self.notes = notes
        self.hit = hit
    }
}

/// A bookmark with the page it stands for in the book's file now (`BookReader.ResolvedBookmark`).
public struct ResolvedBookmark: Sendable {
    public let bookmark: Bookmark
    public let resolution: LocatorResolution

    public init(bookmark: Bookmark, resolution: LocatorResolution) {
        self.bookmark = bookmark
        self.resolution = resolution
    }
}
