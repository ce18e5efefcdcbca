import Foundation
import PluginKit

/// Where the element a fragment names (`chapter.xhtml#sec3`) is in its reading-order item: a place in the item's
/// bare text, the text search reads. A position holds the text whose place in that text lies in [k/n, (k+1)/n),
/// so the element's place is its progression and the position that holds it follows; the element's first words
/// go with it as a quote, for whoever pages the text differently (the host, at a terminal's width) to find it.
///
/// A table of contents points into one item many times in a row (the EPUB 3 specification: 99 entries in one
/// file), so the last item's text and the places of all its elements are kept.
final class FragmentPlaces {
    struct Place {
        let progression: Double
        let quote: Locator.Text?
    }

    private var last: (index: Int, text: [UInt8], anchors: [String: Int])?

    /// The place of the element `id` in item `index`, or nil when the item has no such element (or no text).
    func place(of id: String, item index: Int, in publication: EPUBPublication) -> Place? {
        guard let (text, anchors) = anchoredText(item: index, in: publication), let offset = anchors[id] else {
            return nil
        }
        guard !text.isEmpty else { return Place(progression: 0, quote: nil) }
        let progression = min(Double(offset) / Double(text.count), 1)
        return Place(progression: progression, quote: EPUBPublication.quote(text, from: offset))
    }

    private func anchoredText(item index: Int, in publication: EPUBPublication) -> (
        text: [UInt8], anchors: [String: Int]
    )? {
        if let last, last.index == index { return (last.text, last.anchors) }
        let book = publication.book
        guard let item = book.readingOrder[safe: index] else { return nil }
        let target = item.content
        guard !target.mediaType.hasPrefix("image/") || target.mediaType == "image/svg+xml",
            book.encryption.protection(of: target.path) == nil,
            // A document that does not parse has no fragments to place; rendering it says what is wrong.
            let root = try? book.rawDocument(at: target.path).root
        else { return nil }
        let found = TextRenderer.anchoredText(root, hidden: book.hiddenStyles(of: root, path: target.path))
        last = (index, found.text, found.anchors)
        return found
    }

    /// The element id a locator names: its first fragment, or the fragment of its href, percent-decoded. A media
    /// fragment (`t=…`) or a CFI is no element id; those simply find no element.
    static func elementID(_ locator: Locator) -> String? {
        let raw = locator.locations.fragments?.first ?? Paths.splitFragment(locator.href).fragment
        guard let raw, !raw.isEmpty else { return nil }
        return Paths.percentDecode(raw)
    }
}
