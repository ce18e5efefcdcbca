/// Where a notification leads, as a route a command line or a later browser UI can follow:
/// `reservations` (the holds list), `loans` (My Books) or `book:<id>` (the title's details).
public enum NotificationRoute: Equatable, Sendable, CustomStringConvertible {
    case reservations
    case loans
    /// The Accounts page (`shelf account list`): where a refused sign-in is signed in again.
    case accounts
    case book(String)

    public init?(_ text: String) {
        switch text {
        case "reservations": self = .reservations
        case "loans": self = .loans
        case "accounts": self = .accounts
        default:
            guard text.hasPrefix("book:"), text.count > 5 else { return nil }
            self = .book(String(text.dropFirst(5)))
        }
    }

    public var description: String {
        switch self {
        case .reservations: return "reservations"
        case .loans: return "loans"
        case .accounts: return "accounts"
        case .book(let id): return "book:\(id)"
        }
    }

    /// The section's name as the patron reads it.
    public var words: String {
        switch self {
        case .reservations: return "Reservations"
        case .loans: return "My Books"
        case .accounts: return "Accounts"
        case .book: return "the book's details"
        }
    }
}
