import Foundation
import TestSupport
import XCTest

/// Issue 19, item 3: `shelf read` in a terminal shows the theme as colours (night: light on dark; sepia), never with
/// NO_COLOR and never when its output is not a terminal; the words are the same either way.
final class TerminalThemeTests: BookshelfTestCase {
    static let night = "\u{1B}[38;5;252;48;5;234m", sepia = "\u{1B}[38;5;94;48;5;230m"

    func testTheThemeIsShownAsColoursOnATerminalOnly() throws {
        try ok(["add", try fixture()])
        var colour = shelf.environment
        colour["NO_COLOR"] = nil
        colour["TERM"] = "xterm-256color"
        let day = try TerminalProcess.run(["read", "tide", "--goto", "2"], environment: colour, outputOnTerminal: true)
        XCTAssertEqual(day.status, 0, day.stderr)
        XCTAssertFalse(day.stderr.contains("\u{1B}["), "day: the terminal's own colours")

        try ok(["settings", "--theme", "night"])
        let night = try TerminalProcess.run(
            ["read", "tide", "--goto", "2"], environment: colour, outputOnTerminal: true)
        XCTAssertTrue(night.stderr.contains(Self.night), night.stderr)
        XCTAssertTrue(night.stderr.contains("page 2 of"), night.stderr)
        let plain = night.stderr.replacingOccurrences(of: Self.night, with: "").replacingOccurrences(
            of: "\u{1B}[K", with: ""
        )
        .replacingOccurrences(of: "\u{1B}[0m", with: "")
        XCTAssertEqual(Self.squeeze(plain), Self.squeeze(day.stderr), "the same words, only coloured")

        try ok(["settings", "tide", "--theme", "sepia"])
        XCTAssertTrue(
            try TerminalProcess.run(["read", "tide"], environment: colour, outputOnTerminal: true).stderr.contains(
                Self.sepia))

        var noColour = colour
        noColour["NO_COLOR"] = "1"
        XCTAssertFalse(
            try TerminalProcess.run(["read", "tide"], environment: noColour, outputOnTerminal: true).stderr.contains(
                "\u{1B}["))
        var piped = shelf!
        piped.environment = colour
        XCTAssertFalse(try piped.run(["read", "tide"]).stdout.contains("\u{1B}["), "not a terminal: no colour")
    }
}
