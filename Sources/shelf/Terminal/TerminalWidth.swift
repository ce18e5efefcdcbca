/// Columns text takes on a terminal, by wcwidth's rules (as the EPUB plugins wrap a page): 2 for East Asian wide and
/// full-width characters, 0 for combining marks and format characters, 1 otherwise. Counting characters instead let
/// a status line in Devanagari (a letter and its vowel sign are one character, two columns) or Chinese run past the
/// last column, wrap, and push the page's first line off the screen.
enum TerminalWidth {
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }

    static func columns(_ text: some StringProtocol) -> Int { text.unicodeScalars.reduce(0) { $0 + columns($1) } }

    /// `text` cut to `width` columns, whole characters only, with "…" where it was cut.
    static func fit(_ text: String, _ width: Int) -> String {
        guard columns(text) > width else { return text }
        var kept = "", used = 0
        for character in text {
            let c = columns(String(character))
            if used + c > width - 1 { break }
            kept.append(character)
            used += c
        }
        return width > 0 ? kept + "…" : ""
    }
}
