import Foundation

/// Finds the book a patron names: a path, a library id, or any unique part of a title.
public enum BookReference {
    /// The one book `text` names. No match is `noInput` (66); several are a usage error (64) that lists them.
    public static func find(_ text: String, in database: LibraryDatabase) throws -> ShelfBook {
        let candidates = try self.candidates(text, in: database)
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            throw ShelfError(.noInput, "no book on the shelf is called \"\(text)\"", subject: nil,
                             hint: "`shelf books` lists the shelf; `shelf add FILE` puts a book on it.")
        }
        let list = candidates.prefix(10).map { "    \($0.book.id)  \($0.book.title)" }.joined(separator: "\n")
        throw ShelfError(.usage, "\"\(text)\" matches \(candidates.count) books:\n\(list)",
                         hint: "Give more of the title, or the library id.")
    }

    /// Every book `text` could name, the most precise kind of match first: id, path, whole title, part of a title.
    public static func candidates(_ text: String, in database: LibraryDatabase) throws -> [ShelfBook] {
        guard !text.isEmpty else { return [] }
        if let byID = try database.shelfBook(id: text) { return [byID] }
        // A path: as given, made absolute, and with links resolved (the shelf stores absolute paths).
        let absolute = absolutePath(text)
        for path in Set([text, absolute, (absolute as NSString).resolvingSymlinksInPath]) {
            let found = try database.shelfBooks(path: path)
            if !found.isEmpty { return found }
        }
        let byOrigin = try database.connection.query("SELECT id FROM books WHERE source_uri = ? OR source_uri = ?", [text, absolute])
            .compactMap { row -> ShelfBook? in try database.shelfBook(id: try row.get("id")) }
        if !byOrigin.isEmpty { return byOrigin }
        let titled = try database.shelfBooks(titleContaining: text)
        let whole = titled.filter { $0.book.title.compare(text, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
        if whole.count == 1 { return whole }
        if !titled.isEmpty { return titled }
        // Beyond ASCII, LIKE does not fold case: compare in Swift.
        return try database.shelfBooks().filter {
            $0.book.title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    static func absolutePath(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let full = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        return (full as NSString).standardizingPath
    }
}
