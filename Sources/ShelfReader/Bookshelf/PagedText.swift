import Foundation
import TextFolding

/// One reading-order item's rendered text cut into its pages.
///
/// A page is a Readium position: one per started 1024 bytes of the item's resource, as the plugin counts them. The
/// plugin renders the whole item; page k of n is the text whose place in the rendered item lies in [k/n, (k+1)/n),
/// the same proportional rule the plugin uses for a search hit's or a quote's progression. Lines are never split:
/// a line belongs to the page where it starts, so every line is shown exactly once.
public struct PagedText {
    public let text: String
    public let pages: [String]
    /// Where each page starts in `text`, in UTF-8 bytes.
    let pageStarts: [Int]
    let lineStarts: [Int]
    let length: Int

    public init(text: String, pageCount: Int) {
        self.text = text
        let n = max(1, pageCount)
        let bytes = Array(text.utf8)
        length = bytes.count
        var starts: [Int] = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A && i + 1 < bytes.count { starts.append(i + 1) }
        lineStarts = starts
        var pageLines = [[Int]](repeating: [], count: n)
        for (index, start) in starts.enumerated() {
            pageLines[Self.page(ofOffset: start, length: bytes.count, pages: n)].append(index)
        }
        var pages: [String] = []
        var pageStarts: [Int] = []
        var lastEnd = 0
        for lines in pageLines {
            guard let first = lines.first, let last = lines.last else {
                pages.append("")
                pageStarts.append(lastEnd)
                continue
            }
            let start = starts[first]
            let end = last + 1 < starts.count ? starts[last + 1] : bytes.count
            pages.append(String(decoding: bytes[start..<end], as: UTF8.self))
            pageStarts.append(start)
            lastEnd = end
        }
        self.pages = pages
        self.pageStarts = pageStarts
    }

    static func page(ofOffset offset: Int, length: Int, pages: Int) -> Int {
        guard length > 0 else { return 0 }
        return min(pages - 1, max(0, offset) * pages / length)
    }

    /// The page that shows the byte at `offset` (the page of the line it is on).
    public func page(showing offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return Self.page(ofOffset: lineStarts[low], length: length, pages: pages.count)
    }

    /// Text before page `index` in this item (for a quote's "before").
    public func text(before index: Int) -> String {
        guard index > 0, index < pageStarts.count else { return "" }
        return String(decoding: Array(text.utf8)[0..<pageStarts[index]], as: UTF8.self)
    }

    /// The page's own text with surrounding blank lines trimmed, for the terminal.
    public func display(_ index: Int) -> String {
        guard pages.indices.contains(index) else { return "" }
        var lines = pages[index].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

/// Text reduced to its letters and digits, folded (TextFolding), with a map back to the UTF-8 offset of each: how a
/// quote is found again whatever the line wrapping, indentation, decorations or punctuation around it.
extension FoldedText {
    static func letters(_ text: String) -> FoldedText {
        FoldedText(text, keep: .lettersAndDigits, origins: .utf8Offset)
    }

    /// True when the letters just before `index` end with `context`'s last letters.
    func precededBy(_ context: [Unicode.Scalar], at index: Int) -> Bool {
        guard !context.isEmpty else { return false }
        let tail = Array(context.suffix(min(24, context.count)))
        guard index >= tail.count else { return false }
        return Array(scalars[(index - tail.count)..<index]) == tail
    }
}
