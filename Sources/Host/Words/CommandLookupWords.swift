// What a command or the browser app says when something it was told to find is not there: a bookmark, a wish or a
// notification by its number (both faces, one sentence, each its hint), a plugin by its id, a file.

/// Something a command was given that names nothing.
public enum CommandLookup: Sendable, Equatable {
    case noBookmark(id: Int64)
    case noWish(id: String)
    case noNotification(id: String)
    case noPlugin(id: String)
    /// A file to sniff, a plugin library or a sample to check, at `path`, that is not there.
    case noSuchFile(path: String, what: String)
    /// The password file of `shelf serve --listen` cannot be read.
    case passwordFileUnreadable(path: String)
    /// `shelf cover` of a book without one.
    case noCover(path: String)
    /// The library offers a web sign-in without saying where (`account` is its id).
    case webSignInWithoutAddress(account: String)

    /// The error the command throws: "not there" (66), or a library's document that says too little (65).
    public var error: ShelfError {
        switch self {
        case .noBookmark(let id):
            return ShelfError(
                .noInput, "there is no bookmark \(id)",
                next: NextStep(
                    terminal: "`shelf bookmarks BOOK` lists a book's bookmarks.",
                    browser: "The book’s list of bookmarks shows those there are."))
        case .noWish(let id):
            return ShelfError(
                .noInput, "there is no wish \(id)",
                next: NextStep(
                    terminal: "`shelf wishlist` lists the wishes with their numbers.",
                    browser: "The Reading lists page shows the wishes there are."))
        case .noNotification(let id):
            return ShelfError(
                .noInput, "there is no notification \(id)",
                next: NextStep(
                    terminal: "`shelf notifications --all` lists them with their numbers.",
                    browser: "The Notifications page shows those there are."))
        case .noPlugin(let id):
            return ShelfError(
                .noInput, "no plugin has the id \(id)",
                next: NextStep(terminal: "`shelf plugins` lists the installed plugins and their ids.", browser: nil))
        case .noSuchFile(let path, let what): return ShelfError(.noInput, "no such \(what)", subject: path)
        case .passwordFileUnreadable(let path):
            return ShelfError(.noInput, "cannot read the password file", subject: path)
        case .noCover(let path): return ShelfError(.noInput, "this book has no cover image", subject: path)
        case .webSignInWithoutAddress(let account):
            return ShelfError(.badData, "the library's web sign-in has no address", subject: account)
        }
    }
}
