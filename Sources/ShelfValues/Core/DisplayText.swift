import Foundation

/// Text from a book or a service made safe to show on one line of a terminal. A title is the publisher's or the
/// patron's data: a newline in it breaks a listing's layout, and an escape sequence would drive the terminal.
public enum DisplayText {
    /// `text` on one line: control characters (newlines, tabs, escapes, C1 controls) and line or paragraph
    /// separators become spaces, runs of spaces one, and the ends are trimmed.
    public static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isBreak =
                scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.properties.isWhitespace
            if isBreak {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.append(scalar)
        }
        return String(out)
    }
}
