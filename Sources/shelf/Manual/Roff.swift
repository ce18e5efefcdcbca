import Foundation

/// Text for man(7) pages: escapes what roff would read as requests or escapes, and writes the command table's
/// conventions (`code` in backticks, --options, PLACEHOLDERS) in the fonts man pages use.
enum Roff {
    /// Prose made safe for a roff line. `code` becomes bold; the hyphens of code and of words that begin with one
    /// (options) are written \- so that they copy and search as the ASCII hyphen-minus.
    static func text(_ plain: String) -> String {
        var out = ""
        var inCode = false
        var optionWord = false
        var atWordStart = true
        for character in plain {
            if character == "`" {
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
                continue
            }
            if character == " " {
                atWordStart = true
                optionWord = false
                out.append(character)
                continue
            }
            if atWordStart, !"([\"“".contains(character) {
                optionWord = character == "-"
                atWordStart = false
            }
            out += escape(character, hyphen: inCode || optionWord)
        }
        if inCode { out += "\\fR" }
        return guardLineStart(out)
    }

    /// A usage line: `shelf`, the command, its actions and options in bold, placeholders in italics.
    static func synopsis(_ usage: String) -> String {
        let words = usage.split(separator: " ").map { word -> String in
            let core = word.filter { !"[]()".contains($0) }.replacingOccurrences(of: "...", with: "")
            let escaped = word.map { escape($0, hyphen: true) }.joined()
            if core.first?.isUppercase == true { return "\\fI" + escaped + "\\fR" }
            if core == "|" || core.isEmpty { return escaped }
            return "\\fB" + escaped + "\\fR"
        }
        return guardLineStart(words.joined(separator: " "))
    }

    /// A word or phrase in bold, hyphens as \-.
    static func bold(_ text: String) -> String {
        "\\fB" + text.map { escape($0, hyphen: true) }.joined() + "\\fR"
    }

    private static func escape(_ character: Character, hyphen: Bool) -> String {
        switch character {
        case "\\": return "\\e"
        case "-": return hyphen ? "\\-" : "-"
        case "'": return "\\(aq"
        default:
            // groff reads its input as Latin-1 unless preconv runs: other characters go by their code point.
            if character.isASCII { return String(character) }
            return character.unicodeScalars.map {
                "\\[u" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            }.joined()
        }
    }

    private static func guardLineStart(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
