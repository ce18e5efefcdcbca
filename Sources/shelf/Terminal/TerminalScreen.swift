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

    /// Draws `lines` from the top (cut to the width; rows past them cleared) and `status` on the last row.
    func draw(_ lines: [String], status: String, theme: TerminalTheme? = nil, highlight: Int? = nil) {
        var frame = "\u{1B}[H"
        for row in 0..<textRows {
            let text = row < lines.count ? Self.fit(lines[row], columns) : ""
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

    /// `text` cut to `width` characters (a line wider than the terminal would wrap and push the status line off).
    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    private func emit(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }
}
