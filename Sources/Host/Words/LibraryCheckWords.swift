import Foundation

// How current Reservations and My Books are: when shelf last asked the library, and whether it answered. The browser
// app shows it above the list, beside "Check now".

/// When shelf last asked the patron's libraries for their loans and holds, and which did not answer.
public struct LibraryCheck: PatronOutcome, Sendable {
    public let at: Date
    /// The libraries (by name) that did not answer.
    public let unanswered: [String]

    public init(at: Date, unanswered: [String]) {
        self.at = at
        self.unanswered = unanswered
    }

    public var sentence: String {
        let time = Self.time(at)
        guard !unanswered.isEmpty else { return "Checked with your library at \(time)." }
        return "\(unanswered.joined(separator: " and ")) did not answer at \(time): this is what shelf knew before."
    }

    public var next: NextStep? {
        unanswered.isEmpty
            ? nil : NextStep(terminal: "Try `shelf sync` again later.", browser: "Check again in a minute or two.")
    }

    /// "9:05 PM" or "21:05", as the patron's locale writes a time of day.
    private static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateStyle = .none
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }
}
