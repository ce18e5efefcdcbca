import Foundation
import Readium

/// Where the patron is in a book: a Readium locator, as the front end that saved it made it (the browser's: its
/// chapter, how far into it its screen starts and the screen's first words; `shelf read`'s: its page's position and
/// first words), and the page of the book it stands for, as `shelf read` counts pages (Readium positions).
/// `BookReader.place` and `BookReader.savePlace` give one without rendering the book as text.
public struct ReadingPlace: Sendable {
    public let locator: Locator
    /// 1-based, over the whole book: the position the locator is in.
    public let page: Int
    public let pages: Int
    /// Something the patron should know: a place not found in a new edition, a file that is another book now.
    public let notes: [String]
    /// No place was saved yet: the book's first open, where the browser shows its jacket before chapter one.
    public let first: Bool

    public init(locator: Locator, page: Int, pages: Int, notes: [String], first: Bool = false) {
        self.locator = locator
        self.page = page
        self.pages = pages
        self.notes = notes
        self.first = first
    }

    public var percent: Int { ReadingProgress.percent(page: page, of: pages) }
}
