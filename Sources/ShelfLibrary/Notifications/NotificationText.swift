import ShelfValues
import ShelfCore

/// The notification texts, word for word as the patron's requirements give them. The same text goes to the
/// desktop, the terminal and `shelf notifications`; it carries its meaning in words, never in an icon or colour.
public enum NotificationText {
    /// "[title] is ready to be checked out. You have [N] days to complete checkout of this item." — "1 day" in the
    /// singular.
    public static func holdReady(_ title: String, days: Int) -> String {
        "\(title) is ready to be checked out. You have \(Plural.count(days, "day")) to complete checkout of this item."
    }

    /// A ready hold with 24 hours or less left.
    public static func holdLastDay(_ title: String) -> String {
        "\(title) is ready to be checked out. You have 1 day left to complete checkout of this item."
    }

    public static func loanWeek(_ title: String) -> String {
        "\(title) has one week left before it will be returned."
    }

    public static func loanDay(_ title: String) -> String {
        "\(title) has one day left before it must be returned."
    }

    public static func loanReturned(_ title: String) -> String {
        "\(title) has been returned."
    }

    /// A wished title that can be borrowed now, word for word as the wish-list story gives it.
    public static func wishAvailable(_ title: String, library: String) -> String {
        "\(title) is available to borrow now at \(library)."
    }

    /// A loan the library ended before its end (`LibraryChange`).
    public static func loanEnded(_ title: String) -> String {
        "\(title) is no longer on loan to you: the library ended the loan early. Its file was deleted; your place and "
            + "bookmarks are kept."
    }

    /// A hold the library no longer lists (`LibraryChange`).
    public static func holdCancelled(_ title: String) -> String {
        "Your hold on \(title) was cancelled: the library no longer lists it."
    }

    /// A ready hold not borrowed in time (`LibraryChange`).
    public static func holdLapsed(_ title: String) -> String {
        "Your hold on \(title) has expired: it was not borrowed in time."
    }

    /// The library refused the stored sign-in (`title` is the library's name).
    public static func signInRefused(_ library: String) -> String {
        "\(library) refused your sign-in: loans and holds are not updated until you sign in again."
    }

    /// Added to the notices made from stored end dates while the sign-in is refused.
    public static let notConfirmed = " (Not confirmed by the library: your sign-in was refused.)"

    /// The text of `kind` for `title`; `days` is used by `holdReady` only, `library` by `wishAvailable` only.
    public static func text(_ kind: NotificationKind, title: String, days: Int, library: String = "") -> String {
        switch kind {
        case .holdReady: return holdReady(title, days: days)
        case .holdLastDay: return holdLastDay(title)
        case .loanWeek: return loanWeek(title)
        case .loanDay: return loanDay(title)
        case .loanReturned: return loanReturned(title)
        case .wishAvailable: return wishAvailable(title, library: library)
        case .loanEnded: return loanEnded(title)
        case .holdCancelled: return holdCancelled(title)
        case .holdLapsed: return holdLapsed(title)
        case .signInRefused: return signInRefused(title)
        }
    }
}
