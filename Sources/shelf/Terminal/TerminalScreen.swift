import Foundation
import Glibc
import Host

/// A full-screen view on the terminal: the alternate screen (the patron's scrollback is left as it was), rows drawn
/// whole each time, and a status line on the last row in reverse video.
struct TerminalScreen {
    var columns = 80
    var rows = 24

    /// The terminal's size now (after a SIGWINCH, the new one).
    mutating func measure() {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            columns = Int(size.ws_col)
            rows = Int(size.ws_row)
        }
    }

    /// Rows for text: all but the status line.
    var textRows: Int { max(1, rows - 1) }

    func enter() { emit("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J") }
    func leave() { emit("\u{1B}[0m\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l") }

    /// Draws `lines` from the top (cut to the width; rows past them cleared) and `status` on the last row; the row
    /// `highlight` in reverse video, and each occurrence of `marking` (a search's words) too.
    func draw(
        _ lines: [String], status: String, theme: TerminalTheme? = nil, highlight: Int? = nil,
        marking: String? = nil, current: (row: Int, nth: Int)? = nil
    ) {
        var frame = "\u{1B}[H"
        for row in 0..<textRows {
            var text = row < lines.count ? Self.fit(lines[row], columns) : ""
            if let marking, row != highlight {
                text = Self.mark(marking, in: text, current: current?.row == row ? current?.nth : nil)
            }
            frame += "\u{1B}[\(row + 1);1H"
            if row == highlight {
                frame += "\u{1B}[7m" + text + "\u{1B}[K\u{1B}[0m"
            } else if let theme {
                frame += theme.paint(text)
            } else {
                frame += text + "\u{1B}[K"
            }
        }
        frame += "\u{1B}[\(rows);1H\u{1B}[7m" + Self.fit(status, columns) + "\u{1B}[K\u{1B}[0m"
        emit(frame)
    }

    /// `text` with each occurrence of `words` (as search finds them: case and accents aside) in reverse video; the
    /// reverse ends with its own switch (27), so a theme's colours go on after it.
    /// The occurrence numbered `current` (from 0) is the hit the reader is at: underlined and bold as well, apart
    /// from the others.
    static func mark(_ words: String, in text: String, current: Int? = nil) -> String {
        guard !words.isEmpty else { return text }
        var marked = "", rest = text[...], n = 0
        while let found = rest.range(of: words, options: [.caseInsensitive, .diacriticInsensitive]) {
            marked +=
                n == current
                ? rest[..<found.lowerBound] + "\u{1B}[1;4;7m" + rest[found] + "\u{1B}[22;24;27m"
                : rest[..<found.lowerBound] + "\u{1B}[7m" + rest[found] + "\u{1B}[27m"
            rest = rest[found.upperBound...]
            n += 1
        }
        return marked + rest
    }

    /// How many times `words` occur in `text`, as `mark` finds them.
    static func occurrences(of words: String, in text: String) -> Int {
        guard !words.isEmpty else { return 0 }
        var count = 0, rest = text[...]
        while let found = rest.range(of: words, options: [.caseInsensitive, .diacriticInsensitive]) {
            count += 1
            rest = rest[found.upperBound...]
        }
        return count
    }

    /// `text` cut to `width` columns (a line wider than the terminal would wrap and push the status line off).
    static func fit(_ text: String, _ width: Int) -> String { TerminalWidth.fit(text, width) }

    private func emit(_ text: String) {
        Output.standardOutput(text, flush: true)
    }
}
