import Foundation
import Readium
import TextFolding

/// The text quote stored with a position or a bookmark (Readium's `text`: before, highlight), made from the page the
/// patron sees, and found again in the rendered text of an item.
public enum TextQuote {
    static let highlightLength = 120
    static let beforeLength = 60
    /// Letters compared when finding a quote again: enough to be unique in a book, short enough to survive small edits
    /// further on.
    static let matchLetters = 64

    /// White space runs become one space; the ends are trimmed.
    static func squeeze(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The words of rendered text: heading underlines and rules ("=====", "* * *") left out, white space made single.
    static func plain(_ text: String) -> String {
        squeeze(
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { line in
                    !(line.contains { !$0.isWhitespace }
                        && line.allSatisfy { "=-*_~#".contains($0) || $0.isWhitespace })
                }
                .joined(separator: "\n"))
    }

    /// Up to `limit` characters, cut at a word boundary when there is one.
    static func prefix(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = String(text.prefix(limit))
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            return String(cut[..<space])
        }
        return cut
    }

    static func suffix(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = String(text.suffix(limit))
        if let space = cut.firstIndex(of: " "), cut.distance(from: space, to: cut.endIndex) > limit / 2 {
            return String(cut[cut.index(after: space)...])
        }
        return cut
    }

    /// The quote of a passage the patron is at (a narrated phrase, a sentence heard): its first words, as long as a
    /// page's quote, by the same rule the browser's `quote()` (in-book-place.js) follows. Longer finds nothing more:
    /// a quote is found again by its first `matchLetters` letters.
    public static func highlight(of text: String) -> String { prefix(squeeze(text), highlightLength) }

    /// The quote for page `index` of `paged`: its first words, and the words just before it.
    static func make(_ paged: PagedText, page index: Int) -> Locator.Text? {
        guard paged.pages.indices.contains(index) else { return nil }
        let highlight = highlight(of: plain(paged.pages[index]))
        guard FoldedText.letters(highlight).scalars.count >= 3 else { return nil }
        let before = suffix(plain(paged.text(before: index)), beforeLength)
        return Locator.Text(before: before.isEmpty ? nil : before, highlight: highlight, after: nil)
    }

    /// The page of `paged` where `quote` starts, or nil when it is not there. Several matches: the one preceded by the
    /// quote's "before" wins, then the one nearest `expected` (a page index).
    static func find(_ quote: Locator.Text, in paged: PagedText, near expected: Int? = nil) -> Int? {
        guard let match = locate(quote, in: paged, near: expected) else { return nil }
        return paged.page(showing: match)
    }

    /// The UTF-8 offset in `paged.text` where the quote starts.
    static func locate(_ quote: Locator.Text, in paged: PagedText, near expected: Int? = nil) -> Int? {
        guard let highlight = quote.highlight else { return nil }
        let needle = Array(FoldedText.letters(highlight).scalars.prefix(matchLetters))
        guard needle.count >= 3 else { return nil }
        let stream = FoldedText.letters(paged.text)
        let hits = stream.occurrences(of: needle, overlapping: true).map(\.lowerBound)
        guard !hits.isEmpty else { return nil }
        let before = FoldedText.letters(quote.before ?? "").scalars
        let target = expected.flatMap { paged.pageStarts.indices.contains($0) ? paged.pageStarts[$0] : nil } ?? 0
        let best = hits.min { a, b in
            let ca = stream.precededBy(before, at: a), cb = stream.precededBy(before, at: b)
            if ca != cb { return ca }
            return abs(stream.origins[a] - target) < abs(stream.origins[b] - target)
        }!
        return stream.origins[best]
    }

    /// Words to hand the plugin's search when the quote is not where the locator says: the first words of the quote,
    /// whole words only.
    static func searchQuery(_ quote: Locator.Text) -> String? {
        guard let highlight = quote.highlight else { return nil }
        // Decorations a text rendering adds (bullets, quote marks of block quotes) are not in the book's text.
        let words = squeeze(highlight).split(separator: " ").filter { $0.contains { $0.isLetter || $0.isNumber } }
        guard !words.isEmpty else { return nil }
        // The last word may have been cut; leave it out when there are enough others.
        let whole = words.count > 4 ? words.dropLast() : words[...]
        return prefix(whole.prefix(6).joined(separator: " "), 60)
    }
}
