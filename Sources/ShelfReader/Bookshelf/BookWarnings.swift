import ShelfLibrary
import ShelfPlugins
import Foundation
import PluginAPI
import Synchronization

/// What a plugin warns about a book on the shelf — "the book was re-packed", "the navigation document is missing" —
/// is said once per book, the first time shelf opens it, and not again on every page turn (each `shelf read --next`
/// opens the book anew). The warnings said are kept with the book in the library database, so a new edition's
/// own warnings are still said. Files opened outside the shelf (`shelf info FILE`) are not concerned.
enum BookWarnings {
    private struct Watch {
        /// Nil while a file is being added: its id is not known until it is open.
        let bookID: String?
        let database: LibraryDatabase
    }

    /// The shelf's files being opened in this process, by path; the warnings said about files being added; and
    /// whether the log filter is in place.
    private static let state = Mutex<(installed: Bool, watched: [String: Watch], heard: [String: [String]])>(
        (false, [:], [:]))

    /// Says the warnings about the file at `path` (the book `bookID`; nil for a file being added) only once from now on.
    static func watch(path: String, bookID: String?, database: LibraryDatabase) {
        let install = state.withLock { state -> Bool in
            state.watched[path] = Watch(bookID: bookID, database: database)
            defer { state.installed = true }
            return !state.installed
        }
        guard install else { return }
        let previous = HostServices.logSink
        HostServices.logSink = { pluginID, level, message in
            if level == SHELF_LOG_WARNING, !firstTime(message) { return }
            previous(pluginID, level, message)
        }
    }

    /// False for a warning about a watched book that was said before; true (and remembered) otherwise.
    private static func firstTime(_ message: String) -> Bool {
        let watched = state.withLock { $0.watched }
        guard let (path, watch) = watched.first(where: { message.hasPrefix($0.key + ": ") }) else { return true }
        let digest = Self.digest(String(message.dropFirst(path.count + 2)))
        guard let bookID = watch.bookID else {
            state.withLock { $0.heard[path, default: []].append(digest) }
            return true
        }
        return remember([digest], bookID: bookID, database: watch.database)
    }

    /// The file at `path` was added as `bookID`: what was said while it was opened counts as said for the book.
    static func added(path: String, bookID: String, database: LibraryDatabase) {
        let heard = state.withLock { state -> [String] in
            state.watched[path] = nil
            return state.heard.removeValue(forKey: path) ?? []
        }
        if !heard.isEmpty { _ = remember(heard, bookID: bookID, database: database) }
    }

    /// Records `digests` as said for the book; false when they all had been.
    private static func remember(_ digests: [String], bookID: String, database: LibraryDatabase) -> Bool {
        let key = "warned:" + bookID
        // Remembering is a courtesy: unknown, a warning is said again, which is the lesser harm than never.
        let said = ((try? database.meta(key)) ?? nil)?.split(separator: "\n").map(String.init) ?? []
        let new = digests.filter { !said.contains($0) }
        guard !new.isEmpty else { return false }
        // As above: not remembered, said again next time.
        try? database.setMeta(key, (said + new).suffix(50).joined(separator: "\n"))
        return true
    }

    /// A short stable name for a warning's text (FNV-1a).
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }
}
