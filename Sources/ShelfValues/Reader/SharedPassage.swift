import Foundation
import Readium

/// A passage to share: the words, where they are, and a link back to the book.
public struct SharedPassage {
    public let book: ShelfBook
    public let page: ReadingPage
    public let passage: String
    public let locator: Locator
    /// The catalog's link for the book with the locator in its fragment, when the book came from a catalog.
    public let link: String?

    public init(book: ShelfBook, page: ReadingPage, passage: String, locator: Locator, link: String?) {
        self.book = book
        self.page = page
        self.passage = passage
        self.locator = locator
        self.link = link
    }

    /// The text a patron pastes: the passage in quotes, who wrote it and where, and the link.
    public var text: String {
        var lines = ["“\(passage)”"]
        var source = "— " + book.book.title
        if !book.book.authors.isEmpty { source += ", " + book.book.authors.prefix(3).joined(separator: ", ") }
        source +=
            " (" + ([page.chapter].compactMap { $0 } + ["page \(page.number) of \(page.pages)"]).joined(separator: ", ")
            + ")"
        lines.append(source)
        if let link { lines.append(link) }
        return lines.joined(separator: "\n")
    }
}
