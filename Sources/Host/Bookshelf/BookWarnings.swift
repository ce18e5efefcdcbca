import Foundation
import PluginAPI
import Synchronization

/// What a plugin warns about a book on the shelf — "the book was re-packed", "the navigation document is missing" —
/// is said once per book, the first time shelf opens it, and not again on every page turn (each `shelf read --next`
/// opens the book anew). The warnings said are kept with the book in the library database, so a new edition's
/// own warnings are still said. Files opened outside the shelf (`shelf info FILE`) are not concerned.
enum BookWarnings {
    private struct Watch {
        let bookID: String
        let database: LibraryDatabase
    }

    /// The shelf's files being opened in this process, by path; and whether the log filter is in place.
    private static let state = Mutex<(installed: Bool, watched: [String: Watch])>((false, [:]))

    /// Says the warnings about the file at `path` (the book `bookID`) only once from now on.
    static func watch(path: String, bookID: String, database: LibraryDatabase) {
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
        let warning = String(message.dropFirst(path.count + 2))
        let key = "warned:" + watch.bookID
        let said = ((try? watch.database.meta(key)) ?? nil)?.split(separator: "\n").map(String.init) ?? []
        let digest = Self.digest(warning)
        if said.contains(digest) { return false }
        try? watch.database.setMeta(key, (said + [digest]).suffix(50).joined(separator: "\n"))
        return true
    }

    /// A short stable name for a warning's text (FNV-1a).
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }
}
