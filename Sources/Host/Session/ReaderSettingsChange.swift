internal import ShelfReader
import Foundation

/// The reader settings as a front end shows and changes them, for every book (`book` nil) or one book, whose own
/// values win: what is stored in that scope, and what applies (its values over the global ones, defaults for the
/// rest). `shelf settings`, `shelf read`, `shelf render` and the browser's reader use these.
extension Bookshelf {
    /// The values stored for the book (or, with nil, for every book); unset values are nil.
    public func storedSettings(book bookID: String?) throws -> ReaderSettings {
        try database.readerSettings(bookID: bookID)
    }

    /// What applies to the book: its values over the global ones, defaults for the rest.
    public func effectiveSettings(book bookID: String?) throws -> ReaderSettings {
        try database.applicableReaderSettings(bookID: bookID).effective()
    }

    /// A value of the settings, to clear with `changeSettings(...clearing:)`.
    public typealias Setting = ReaderSettings.Setting

    /// Sets the values given in `changes` and clears those in `clearing`, keeping the others; `reset` clears every
    /// value of the scope first. The values are checked (an error names a bad one) and written in one transaction.
    @discardableResult
    public func changeSettings(
        book bookID: String?, _ changes: ReaderSettings, clearing: Set<Setting> = [],
        reset: Bool = false
    ) throws -> ReaderSettings {
        var base = reset ? ReaderSettings() : try database.readerSettings(bookID: bookID)
        if clearing.contains(.fontScale) { base.fontScale = nil }
        if clearing.contains(.font) { base.font = nil }
        if clearing.contains(.theme) { base.theme = nil }
        if clearing.contains(.hyphens) { base.hyphens = nil }
        return try database.updateReaderSettings(bookID: bookID, changes.over(base), reset: true)
    }

    /// The theme that applies to a book, for a front end that paints it; nil when the settings cannot be read, as
    /// the theme is a courtesy and the page shows without it.
    public func theme(of book: ShelfBook) -> String? {
        // The default look (no colours) is what a patron gets when the database cannot be read here.
        (try? database.applicableReaderSettings(bookID: book.book.id))?.effective().theme
    }
}

extension ReaderSettings {
    /// These settings if every value is one the settings allow, else an error naming the bad one: the one rule that
    /// `shelf settings`, `shelf render`, the web API and (by the defaults it is given) the browser's reader follow.
    public func checked() throws -> ReaderSettings { try validated() }

    /// A font scale as a patron types it: a whole number, with or without "%" (checked by `checked()`); nil when it
    /// is not a number.
    public static func fontScale(typed text: String) -> Int? {
        Int(text.hasSuffix("%") ? String(text.dropLast()) : text)
    }
}

extension Shelf {
    /// The settings `render` uses for a file: the book's own (when the file is on the shelf, named by one book) over
    /// the global ones, with defaults for the rest. Without a data folder or a database that opens, the defaults:
    /// rendering a file never needs the shelf.
    public func readerSettings(forFile path: String) -> ReaderSettings {
        // No folder or no database: rendering goes on with the defaults, which is what a first run has too.
        guard let bookshelf = try? bookshelf() else { return ReaderSettings().effective() }
        // A look-up that fails counts as a file not on the shelf: the global settings apply.
        let bookID = (try? BookReference.candidates(path, in: bookshelf.database)).flatMap {
            $0.count == 1 ? $0[0].book.id : nil
        }
        // Settings that cannot be read give the defaults; the rendering itself does not depend on them.
        return ((try? bookshelf.database.applicableReaderSettings(bookID: bookID)) ?? ReaderSettings()).effective()
    }
}
