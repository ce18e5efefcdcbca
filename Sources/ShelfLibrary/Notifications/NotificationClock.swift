import Foundation

/// Where the rules read the time. The system clock in shelf; a clock the test moves in tests.
public struct NotificationClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    public var now: Date { read() }

    public static let system = NotificationClock { Date() }

    /// A clock that always says `date`.
    public static func fixed(_ date: Date) -> NotificationClock { NotificationClock { date } }
}
