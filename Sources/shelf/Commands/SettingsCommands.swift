import Foundation
import Host

let settingsCommand = Command(
    name: "settings",
    summary: "display settings: font size, the publisher's font, serif or sans, day, night or sepia, hyphenation",
    usage:
        "shelf settings [BOOK] [--font-scale PCT|default] [--font publisher|serif|sans|default] [--theme day|night|sepia|default] [--hyphens publisher|on|off|default] [--reset] [--json]",
    details: """
        Shows or changes the reader settings, for every book or (with BOOK) for one book, whose own values win.
        The font scale is a percentage of 12 pt (16 CSS pixels): the default is 117% (14 pt) on a large screen,
        which is what shelf uses on a desktop, and 100% (12 pt) on a small one (from 25% to 800%). Fonts: publisher
        (the default: the book's own fonts), serif (Times-like) or sans (Calibri/Avenir-like); themes: day (black on white), night (white on black), sepia. `default` clears one
        value; --reset clears them all for that scope. Hyphenation: publisher (the default: as the book's style sheet
        says), on (words broken at line ends, in the book's language) or off; the browser reader applies it.
        `shelf render --as html` (and the browser reader) use the font scale, font and theme; `shelf read` in a terminal shows the theme as colours (night: light on dark; sepia), unless NO_COLOR
        is set or the output is not a terminal: a terminal cannot change its font or size.
        \(bookArgumentHelp) --json: {"book"?, "effective", "stored", "defaults"}.
        """,
    valueOptions: ["--font-scale", "--font", "--theme", "--hyphens"],
    flagOptions: ["--reset"],
    positionals: 0...1
) { args, context in
    let bookshelf = try openBookshelf(context)
    let book = try args.positionals.first.map { try bookshelf.find($0) }
    let bookID = book?.book.id
    var changes = ReaderSettings()
    var cleared: Set<Bookshelf.Setting> = []
    if let text = args.value("--font-scale") {
        if text == "default" {
            cleared.insert(.fontScale)
        } else {
            guard let pct = ReaderSettings.fontScale(typed: text) else {
                throw CommandUsage.notAFontScale(given: text, orDefault: true).error
            }
            changes.fontScale = pct
        }
    }
    if let font = args.value("--font") {
        if font == "default" { cleared.insert(.font) } else { changes.font = font }
    }
    if let theme = args.value("--theme") {
        if theme == "default" { cleared.insert(.theme) } else { changes.theme = theme }
    }
    if let hyphens = args.value("--hyphens") {
        if hyphens == "default" { cleared.insert(.hyphens) } else { changes.hyphens = hyphens }
    }
    // The host's one rule of the settings (the web API's and `shelf render`'s too) checks the values.
    changes = try changes.checked()
    let changing = !changes.isEmpty || !cleared.isEmpty || args.has("--reset")
    if changing { try bookshelf.changeSettings(book: bookID, changes, clearing: cleared, reset: args.has("--reset")) }
    let stored = try bookshelf.storedSettings(book: bookID)
    let effective = try bookshelf.effectiveSettings(book: bookID)
    if context.json {
        Output.json(SettingsJSON(book: bookID, effective: effective, stored: stored))
        return 0
    }
    if changing { Output.line(CommandNotice.settingsChanged(book: book?.book.title).words(for: .terminal).line) }
    Output.line("Settings for \(book.map { "“\(DisplayText.oneLine($0.book.title))”" } ?? "every book"):")
    func origin(_ own: Any?) -> String {
        own != nil ? "" : (bookID == nil ? " (default)" : " (from the global settings or default)")
    }
    Output.line(
        "  Font scale: \(effective.fontScale!)% (\(String(format: "%.1f", Double(effective.fontScale!) * 0.12)) pt)\(origin(stored.fontScale))"
    )
    Output.line("  Font: \(effective.font!)\(origin(stored.font))")
    Output.line("  Theme: \(effective.theme!)\(origin(stored.theme))")
    Output.line("  Hyphenation: \(effective.hyphens!)\(origin(stored.hyphens))")
    return 0
}
