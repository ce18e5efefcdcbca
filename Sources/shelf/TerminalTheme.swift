import Foundation
import Glibc
import Host

/// The reader's theme as a terminal can show it: night is light text on a dark background, sepia brown on cream,
/// day the terminal's own colours. Only on a terminal and never with NO_COLOR (https://no-color.org); the text is the
/// same either way, so nothing depends on colour. Font and size cannot change in a terminal: they apply to HTML
/// (`shelf render --as html`) and the browser reader.
struct TerminalTheme {
    let start: String
    static let end = "\u{1B}[0m"

    /// The colours for `theme`, or nil when output is not coloured.
    static func colours(theme: String?, environment: [String: String], terminal: Bool) -> TerminalTheme? {
        guard terminal, environment["NO_COLOR"].map({ $0.isEmpty }) ?? true, environment["TERM"] != "dumb" else {
            return nil
        }
        switch theme {
        case "night": return TerminalTheme(start: "\u{1B}[38;5;252;48;5;234m")
        case "sepia": return TerminalTheme(start: "\u{1B}[38;5;94;48;5;230m")
        default: return nil
        }
    }

    /// Each line in the theme's colours, its background carried to the end of the line.
    func paint(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { start + $0 + "\u{1B}[K" + Self.end }
            .joined(separator: "\n")
    }
}
