import Foundation

/// Text folded for matching, with a map back to the original: one folding for book search (the EPUB
/// plugins), finding a quote again on a page (the reader) and matching titles and authors (reading
/// lists). Each scalar folds as `ScalarFolder` says; what a caller keeps of the rest differs:
///
/// - `.text`: everything, white space runs as one space and none at the ends (search a book's words
///   and punctuation);
/// - `.lettersAndDigits`: nothing else (a quote, whatever the wrapping or decorations around it);
/// - `.words`: letters and digits, one space between runs of them (a title or a name).
public struct FoldedText: Sendable {
    public enum Keep: Sendable { case text, lettersAndDigits, words }
    /// What `origins` counts: scalars of the original, or its UTF-8 bytes.
    public enum Origin: Sendable { case scalarIndex, utf8Offset }

    public private(set) var scalars: [Unicode.Scalar] = []
    /// For each folded scalar, where in the original text the scalar it came from is.
    public private(set) var origins: [Int] = []

    public init(_ text: String, keep: Keep, origins unit: Origin = .scalarIndex) {
        var folder = ScalarFolder()
        self.init(text, keep: keep, origins: unit, folder: &folder)
    }

    /// With a caller's folder, whose cache then serves many texts (a book's chapters).
    public init(_ text: String, keep: Keep, origins unit: Origin = .scalarIndex, folder: inout ScalarFolder) {
        scalars.reserveCapacity(text.utf8.count)
        origins.reserveCapacity(text.utf8.count)
        var position = 0
        // A separator is owed before the next kept scalar (never at the start).
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                // ASCII, most of most books: folded here, without the folder's arrays.
                add(
                    v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(v + 0x20)) : scalar, at: position, keep, &pendingSpace
                )
            } else {
                for folded in folder.fold(scalar) { add(folded, at: position, keep, &pendingSpace) }
            }
            position += unit == .scalarIndex ? 1 : UTF8.width(scalar)
        }
    }

    @inline(__always)
    private mutating func add(_ folded: Unicode.Scalar, at position: Int, _ keep: Keep, _ pendingSpace: inout Bool) {
        if ScalarFolder.isLetterOrDigit(folded) || (keep == .text && !ScalarFolder.isWhitespace(folded)) {
            if pendingSpace, !scalars.isEmpty {
                scalars.append(" ")
                origins.append(position)
            }
            pendingSpace = false
            scalars.append(folded)
            origins.append(position)
        } else if keep != .lettersAndDigits {
            pendingSpace = true
        }
    }

    /// Where `needle` occurs, as ranges of folded indexes, in order; `overlapping: false` resumes
    /// after each occurrence.
    public func occurrences(of needle: [Unicode.Scalar], overlapping: Bool) -> [Range<Int>] {
        guard let first = needle.first, needle.count <= scalars.count else { return [] }
        var found: [Range<Int>] = []
        var i = 0
        let last = scalars.count - needle.count
        while i <= last {
            if scalars[i] == first {
                var j = 1
                while j < needle.count && scalars[i + j] == needle[j] { j += 1 }
                if j == needle.count {
                    found.append(i..<(i + needle.count))
                    if !overlapping {
                        i += needle.count
                        continue
                    }
                }
            }
            i += 1
        }
        return found
    }

    /// The folded text as a string (`.words` gives a matching key: "Les Misérables" → "les miserables").
    public var string: String { String(String.UnicodeScalarView(scalars)) }

    /// `.words` as a string, for keys and comparisons of titles and names; ASCII (most titles and
    /// names) folds byte by byte, the same way.
    public static func words(_ s: String) -> String {
        guard s.utf8.allSatisfy({ $0 < 0x80 }) else { return FoldedText(s, keep: .words).string }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var space = false
        for var b in s.utf8 {
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
            if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                if space && !out.isEmpty { out.append(0x20) }
                out.append(b)
                space = false
            } else {
                space = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// What one scalar folds to: case, diacritics and character width gone, as Foundation's `folding`
/// with those three options does it in the POSIX locale ("É" → "e", "ß" → "ss", "Ａ" → "a"), and
/// Arabic tatweel (a stretching stroke, not a letter) dropped; white space of any kind becomes " ";
/// every apostrophe and single quote becomes "'" and every double quote '"' (a patron types
/// `n'avais` for the book's `n’avais`, `"oui"` for `« oui »` or `“oui”`).
/// Non-ASCII results are cached: a book repeats few distinct scalars many times.
public struct ScalarFolder: Sendable {
    private var cache: [UInt32: [Unicode.Scalar]] = [:]

    /// Typographic apostrophes and quotes, and the marks typed for them, by the ASCII one they fold to.
    static let quoteStyles: [UInt32: Unicode.Scalar] = {
        var map: [UInt32: Unicode.Scalar] = [:]
        // ‘ ’ ‚ ‛ ′ ‵ ʹ ʻ ʼ ʽ ˈ ´ ＇
        for v: UInt32 in [
            0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x2035, 0x02B9, 0x02BB, 0x02BC, 0x02BD, 0x02C8, 0x00B4, 0xFF07
        ] {
            map[v] = "'"
        }
        // “ ” „ ‟ ″ ‶ « » ‹ › ＂ 〝 〞
        for v: UInt32 in [
            0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0x2036, 0x00AB, 0x00BB, 0x2039, 0x203A, 0xFF02, 0x301D, 0x301E
        ] {
            map[v] = "\""
        }
        return map
    }()

    public init() {}

    public mutating func fold(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
        let v = s.value
        if v < 0x80 {
            if v >= 0x41 && v <= 0x5A { return [Unicode.Scalar(UInt8(v + 0x20))] }
            return [Self.isWhitespace(s) ? " " : s]
        }
        if let known = cache[v] { return known }
        var out: [Unicode.Scalar]
        if let quote = Self.quoteStyles[v] {
            out = [quote]
        } else if s.properties.isWhitespace {
            out = [" "]
        } else {
            let folded = String(s).folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                locale: Self.posix)
            // Foundation keeps a combining mark that has no letter before it in the string it is given: one
            // scalar at a time, every mark is alone, so marks go here (as folding the whole text drops them).
            out = folded.unicodeScalars.filter {
                $0.value != 0x0640 && $0.properties.generalCategory != .nonspacingMark
            }
            // Anything else that would vanish stays as it is.
            if out.isEmpty && s.properties.generalCategory != .nonspacingMark && v != 0x0640 { out = [s] }
        }
        cache[v] = out
        return out
    }

    /// Letters, marks and digits: Unicode's general categories L, M and N (Foundation's `alphanumerics`).
    public static func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39) }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    public static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s.value == 0x20 || (s.value >= 0x09 && s.value <= 0x0D) || (s.value >= 0x80 && s.properties.isWhitespace)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
