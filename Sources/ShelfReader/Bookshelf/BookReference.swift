import ShelfLibrary
import ShelfCore
import ShelfValues
import Foundation

/// Finds the book a patron names — a path, a library id, a catalog entry's id, a whole title or any unique part of
/// one — for every command that takes a book (`read`, `play`, `listen`, `finished`, `bookmark`, `remove`, `share`…):
/// one resolver, so that a name that works for one command works for all.
///
/// A command that only reads acts at once on a unique part of a title. A command that changes or deletes something
/// acts on a part only when the patron confirms it (`confirm`, asked on a terminal): `remove "M"` must never remove
/// Moby-Dick unasked.
public enum BookReference {
    public typealias Purpose = BookPurpose

    /// The one book `text` names. No match is `noInput` (66); several, or a part of a title for a command that
    /// changes something and no confirmation, are usage errors (64) that list the books.
    public static func find(
        _ text: String, in database: LibraryDatabase, for purpose: Purpose = .read,
        confirm: ((ShelfBook) -> Bool)? = nil
    ) throws -> ShelfBook {
        let (candidates, exact) = try self.matches(text, in: database)
        if candidates.isEmpty {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: absolutePath(text), isDirectory: &isFolder), !isFolder.boolValue {
                // A book file the patron has, not yet on the shelf: the one command that puts it there.
                let typed = text.contains(" ") ? "\"\(text)\"" : text
                throw ShelfError(
                    .noInput, "\(text) is not on the shelf yet", subject: nil,
                    next: NextStep(
                        terminal:
                            "Put it there with `shelf add \(typed)`, then run this again (a title or part of it will do).",
                        browser: nil))
            }
            throw ShelfError(
                .noInput, "no book on the shelf is called \"\(DisplayText.oneLine(text))\"", subject: nil,
                next: NextStep(
                    terminal: "`shelf books` lists the shelf; `shelf add FILE` puts a book on it.",
                    browser: "My Books lists the shelf."))
        }
        guard candidates.count == 1 else {
            throw ShelfError(
                .usage, "\"\(DisplayText.oneLine(text))\" matches \(candidates.count) books:\n" + list(candidates),
                hint: "Give more of the title, or the library id.")
        }
        let book = candidates[0]
        guard !exact, case .change(let action) = purpose else { return book }
        if let confirm {
            if confirm(book) { return book }
            throw ShelfError(
                .usage, "not confirmed: nothing was changed", subject: DisplayText.oneLine(book.book.title))
        }
        throw ShelfError(
            .usage,
            "\"\(DisplayText.oneLine(text))\" is only part of a title; to \(action), give the whole title or the id:\n"
                + list(candidates),
            hint: "Or run the command on a terminal, where shelf asks before it changes anything.")
    }

    /// Every book `text` could name, the most precise kind of match first: id, path, origin, catalog entry id,
    /// whole title, part of a title. Without `byTitle`, only what names a book exactly but its title (for a file).
    public static func candidates(_ text: String, in database: LibraryDatabase, byTitle: Bool = true) throws
        -> [ShelfBook]
    {
        try matches(text, in: database, byTitle: byTitle).books
    }

    /// The candidates, and whether they were named exactly (anything but a part of a title).
    static func matches(_ text: String, in database: LibraryDatabase, byTitle: Bool = true) throws -> (
        books: [ShelfBook], exact: Bool
    ) {
        guard !text.isEmpty else { return ([], false) }
        if let byID = try database.shelfBook(id: text) { return ([byID], true) }
        // A path: as given, made absolute, and with links resolved (the shelf stores absolute paths).
        let absolute = absolutePath(text)
        let resolved = (absolute as NSString).resolvingSymlinksInPath
        for path in [text, absolute, resolved] {
            let found = try database.shelfBooks(path: path)
            if !found.isEmpty { return (found, true) }
        }
        // The file it was added from (`shelf add` keeps a copy: playing or reading the original is the same book).
        let byOrigin = try database.connection.query(
            "SELECT id FROM books WHERE source_uri IN (?, ?, ?)", [text, absolute, resolved]
        )
        .compactMap { row -> ShelfBook? in try database.shelfBook(id: try row.get("id")) }
        if !byOrigin.isEmpty { return (byOrigin, true) }
        // A catalog entry's own id: `catalog:ACCOUNT:ENTRY` and `sample:ACCOUNT:ENTRY` are named by ENTRY.
        if !text.contains(":") {
            let byEntry = try database.connection.query(
                "SELECT id FROM books WHERE id LIKE 'catalog:%' OR id LIKE 'sample:%'"
            )
            .compactMap { row -> String? in try row.get("id") }
            .filter { $0.hasSuffix(":" + text) }
            .compactMap { try database.shelfBook(id: $0) }
            if !byEntry.isEmpty { return (byEntry, true) }
        }
        guard byTitle else { return ([], true) }
        var titled = try database.shelfBooks(titleContaining: text)
        if titled.isEmpty {
            // Beyond ASCII, LIKE does not fold case: compare in Swift.
            titled = try database.shelfBooks().filter {
                $0.book.title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
        }
        let whole = titled.filter {
            DisplayText.oneLine($0.book.title).compare(
                DisplayText.oneLine(text), options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
        }
        if !whole.isEmpty { return (whole, true) }
        return (titled, false)
    }

    /// The books as the refusals list them: id and title, one a line, at most ten.
    static func list(_ books: [ShelfBook]) -> String {
        var lines = books.prefix(10).map {
            "    \(DisplayText.oneLine($0.book.id))  \(DisplayText.oneLine($0.book.title))"
        }
        if books.count > 10 { lines.append("    … and \(books.count - 10) more") }
        return lines.joined(separator: "\n")
    }

    static func absolutePath(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let full = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        return (full as NSString).standardizingPath
    }
}
