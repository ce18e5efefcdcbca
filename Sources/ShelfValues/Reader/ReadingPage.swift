import Foundation
import Readium

/// A page of a book opened for reading (`ReadingSession.Page`): its number over the whole book, its text at the
/// session's width, its chapter and its place.
public struct ReadingPage: Sendable {
    /// 1-based, over the whole book.
    public let number: Int
    public let pages: Int
    /// The page's text at the session's width.
    public let text: String
    /// The table-of-contents entry the page is in.
    public let chapter: String?
    /// The position's locator, with the quote of the page's first words.
    public let locator: Locator

    public init(number: Int, pages: Int, text: String, chapter: String?, locator: Locator) {
        self.number = number
        self.pages = pages
        self.text = text
        self.chapter = chapter
        self.locator = locator
    }

    public var percent: Int { ReadingProgress.percent(page: number, of: pages) }

    /// "Chapter 3 · page 48 of 340 · 14%".
    public var status: String {
        ([chapter].compactMap { $0 } + ["page \(number) of \(pages)", "\(percent)%"]).joined(separator: " · ")
    }
}

/// The page a stored locator (a place, a bookmark) stands for in a book's file (`ReadingSession.Resolution`).
public enum LocatorResolution: Equatable, Sendable {
    case page(Int)
    /// The place cannot be found in this file; the words say why.
    case lost(String)
}

/// An entry of a book's table of contents, flattened in reading order and numbered from 1, with the page it
/// starts on (`ReadingSession.TOCEntry`).
public struct TOCEntry: Encodable, Sendable {
    public let number: Int
    public let title: String
    public let href: String
    public let depth: Int
    public let page: Int?

    public init(number: Int, title: String, href: String, depth: Int, page: Int?) {
        self.number = number
        self.title = title
        self.href = href
        self.depth = depth
        self.page = page
    }
}

/// A search hit and the page that shows it, of `hits` in the book (`ReadingSession.SearchHit`).
public struct PageSearchHit: Sendable {
    public let page: Int
    public let hit: Locator
    public let hits: Int

    public init(page: Int, hit: Locator, hits: Int) {
        self.page = page
        self.hit = hit
        self.hits = hits
    }
}
