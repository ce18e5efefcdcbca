import Foundation

/// Text made safe inside HTML text and double-quoted attribute values: the one escape the web app's own pages use.
enum HTMLEscape {
    static func text(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
