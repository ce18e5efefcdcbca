import Foundation

/// The display settings a patron chooses: font scale, the font (the publisher's, serif or sans), and day, night or
/// sepia. Stored globally and per book; a book's own value wins over the global one, which wins over the default.
/// The font's default is the publisher's: a book shows in its own fonts until the patron chooses another (a terminal,
/// which has one font, shows every choice in it).
///
/// The font scale is a percentage of the reading system's base size, 16 CSS pixels, which is 12 pt. So:
/// - 100% is 12 pt, the default on a small screen (a phone, a window narrower than 600 CSS pixels);
/// - 117% is 14 pt (14 / 12 = 116.7%), the default on a large screen (a tablet, a laptop or desktop).
/// shelf runs on Linux desktops and laptops, so `render` and `read` use the large-screen default; a small-screen
/// interface asks for `effective(screen: .small)`.
public struct ReaderSettings: Equatable, Sendable, Codable {
    public var fontScale: Int?
    public var font: String?
    public var theme: String?
    /// Words broken at the end of a line: "publisher" (as the book's style sheet says, the default), "on" (in the
    /// book's language) or "off".
    public var hyphens: String?

    public init(fontScale: Int? = nil, font: String? = nil, theme: String? = nil, hyphens: String? = nil) {
        self.fontScale = fontScale
        self.font = font
        self.theme = theme
        self.hyphens = hyphens
    }

    public enum Screen: String, Sendable, Codable { case small, large }

    public static let fontScaleRange = 25...800
    /// "publisher": the book's own fonts (a format with none of its own shows in the reading system's serif).
    public static let fonts = ["publisher", "serif", "sans"]
    public static let themes = ["day", "night", "sepia"]
    public static let hyphenations = ["publisher", "on", "off"]
    /// 12 pt on a small screen, 14 pt on a large one, as percentages of 12 pt.
    public static func defaultFontScale(for screen: Screen) -> Int { screen == .small ? 100 : 117 }
    public static let defaultFont = "publisher"
    public static let defaultTheme = "day"
    public static let defaultHyphens = "publisher"

    public var isEmpty: Bool { fontScale == nil && font == nil && theme == nil && hyphens == nil }

    /// These settings over `base`: each value set here wins.
    public func over(_ base: ReaderSettings) -> ReaderSettings {
        ReaderSettings(
            fontScale: fontScale ?? base.fontScale, font: font ?? base.font, theme: theme ?? base.theme,
            hyphens: hyphens ?? base.hyphens)
    }

    /// Every value filled in, defaults where nothing was chosen.
    public func effective(screen: Screen = .large) -> ReaderSettings {
        ReaderSettings(
            fontScale: fontScale ?? Self.defaultFontScale(for: screen), font: font ?? Self.defaultFont,
            theme: theme ?? Self.defaultTheme, hyphens: hyphens ?? Self.defaultHyphens)
    }

    /// A value of the settings, to clear one (`shelf settings --font default`) while keeping the others.
    public enum Setting: String, CaseIterable, Sendable { case fontScale, font, theme, hyphens }
}
