internal import ShelfCore
import Foundation

// How a title on a reading list or the wish list stands at the patron's library, in words: the Reading lists page
// shows them beside each title ("Available now at Fake Public Library", "2 waiting at …", "Not in your library's
// catalog yet").

extension TitleAvailability {
    public var words: String {
        let at = library.map { " at \($0)" } ?? ""
        let said: String
        switch standing {
        case .availableNow: said = "Available now\(at)"
        case .waiting:
            let count = waiting ?? 0
            said = (count == 0 ? "No copy free, no one waiting" : "All copies out, \(count) waiting") + at
        case .onLoan: said = "On loan to you\(at)"
        case .onHold: said = "On hold for you\(at)"
        case .ready: said = "Ready for you to borrow\(at)"
        case .notInCatalog: return "Not in your library's catalog yet"
        case .unknown: said = "Availability unknown\(at)"
        }
        return Sighting.availability(said, seenAt: seenAt)
    }
}

/// A reading-list shelf's name as a heading: the services' own shelves named as a patron knows them. Pure
/// functions: safe from any thread.
public enum ReadingListShelfNames {
    public static func name(_ shelf: String) -> String {
        switch shelf {
        case "read": return "Read"
        case "to-read": return "To read"
        case "currently-reading": return "Reading now"
        default: return shelf.prefix(1).uppercased() + shelf.dropFirst().replacingOccurrences(of: "-", with: " ")
        }
    }
}
