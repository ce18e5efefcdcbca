import ShelfCore
import ShelfValues
import Foundation

// What the reader adds to the settings (a value in ShelfValues): checking them before they are stored, and the
// scope they are stored under for every book.
extension ReaderSettings {
    /// Refuses values outside what the settings allow, naming the option.
    func validated() throws -> ReaderSettings {
        if let scale = fontScale, !Self.fontScaleRange.contains(scale) {
            throw ShelfError(.usage, "the font scale is a percentage from 25 to 800, not \(scale)")
        }
        if let font, !Self.fonts.contains(font) {
            throw ShelfError(.usage, "the font is serif or sans, not \"\(font)\"")
        }
        if let theme, !Self.themes.contains(theme) {
            throw ShelfError(.usage, "the theme is day, night or sepia, not \"\(theme)\"")
        }
        return self
    }

    /// The scope key of the global settings in the database.
    static let globalScope = "*"
}
