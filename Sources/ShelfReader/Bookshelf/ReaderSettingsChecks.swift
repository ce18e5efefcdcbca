import ShelfCore
import ShelfValues
import Foundation

// What the reader adds to the settings (a value in ShelfValues): checking them before they are stored or used, and
// the scope they are stored under for every book.
extension ReaderSettings {
    /// Refuses values outside what the settings allow, naming the setting. The one rule of every face: `shelf
    /// settings` and the web API when they store values, `shelf render` when it is given them, and the browser's
    /// reader, which takes its limits from the defaults document.
    public func validated() throws -> ReaderSettings {
        let range = Self.fontScaleRange
        if let scale = fontScale, !range.contains(scale) {
            throw ShelfError(
                .usage, "the font scale is a percentage from \(range.lowerBound) to \(range.upperBound), not \(scale)")
        }
        if let font, !Self.fonts.contains(font) {
            throw ShelfError(.usage, "the font is publisher, serif or sans, not \"\(font)\"")
        }
        if let theme, !Self.themes.contains(theme) {
            throw ShelfError(.usage, "the theme is day, night or sepia, not \"\(theme)\"")
        }
        if let hyphens, !Self.hyphenations.contains(hyphens) {
            throw ShelfError(.usage, "hyphenation is publisher, on or off, not \"\(hyphens)\"")
        }
        return self
    }

    /// The scope key of the global settings in the database.
    static let globalScope = "*"
}
