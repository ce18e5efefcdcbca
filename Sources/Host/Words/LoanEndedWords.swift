import Foundation

// Why a book on the shelf cannot be read or played: its loan ended at the library, which took its file (as Palace
// does; issue 32, item 8). My Books (`ShelfBookJSON.unavailable`) says it.

enum LoanEndedWords {
    /// "The loan ended at the library on Dec 3, 2026, so its file was deleted. Borrow it again to read it: your
    /// place and bookmarks are kept."
    static func sentence(_ endedAt: Date) -> String {
        let day = DateFormatter.localizedString(from: endedAt, dateStyle: .medium, timeStyle: .none)
        return "The loan ended at the library on \(day), so its file was deleted. "
            + "Borrow it again to read it: your place and bookmarks are kept."
    }
}
