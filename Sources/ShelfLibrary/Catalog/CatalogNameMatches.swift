import Foundation
import ShelfValues

/// The catalog titles a patron's words name, as `LibraryDatabase.findEntries` finds them among what shelf has seen:
/// those named exactly (the identifier, or the whole title ignoring case, accents and the kind of quote), and those
/// whose identifier or title holds the words.
public struct CatalogNameMatches {
    public var exact: [CatalogEntry]
    /// The first few partial matches, by title.
    public var partial: [CatalogEntry]
    /// How many titles match in part, of which `partial` holds the first.
    public var partialCount: Int

    public var isEmpty: Bool { exact.isEmpty && partialCount == 0 }

    /// Words as they are compared: lower case, without accents, typographic quotes as plain ones, single spaces.
    static func key(_ text: String) -> String {
        let folded =
            text.unicodeScalars.allSatisfy(\.isASCII)
            ? text.lowercased()
            : text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .replacingOccurrences(of: "[‘’ʼ]", with: "'", options: .regularExpression)
                .replacingOccurrences(of: "[“”]", with: "\"", options: .regularExpression)
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
