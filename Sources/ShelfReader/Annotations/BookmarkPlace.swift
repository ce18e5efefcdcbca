import Foundation
import Readium

/// What makes two bookmarks the same place, whichever device made them: the resource, the position, and the first
/// words of the quote. Used so a bookmark both devices made is kept once.
struct BookmarkPlace: Hashable {
    let href: String
    let position: Int?
    let quote: String

    init(_ locator: Locator) {
        href = String(locator.href.prefix { $0 != "#" })
        position = locator.locations.position
        quote = String(
            (locator.text?.highlight ?? "").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(60)
        )
    }
}
