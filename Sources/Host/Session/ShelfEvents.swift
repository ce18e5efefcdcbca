import Foundation

/// What happened in the host that a front end may want to show at once: a notification made by a sync, a sync's
/// outcome, where a listening session is. The browser app subscribes and streams them to the page.
public enum ShelfEvent: Sendable {
    /// A notification the rules made (hold ready, loan ending, wished title available...).
    case notification(NotificationRecord)
    /// An account was synced: how many loans and holds it has now.
    case synced(accountID: String, loans: Int, holds: Int)
    /// A listening session moved or changed: the book, the position in seconds, and whether it is playing.
    case listening(bookID: String, position: Double, playing: Bool)
}

/// Subscribers to the host's events. Safe from several threads: the list of subscribers is kept under a lock, and a
/// callback runs on the thread that published the event, outside the lock (so it may subscribe or unsubscribe).
public final class ShelfEvents: @unchecked Sendable {
    public typealias Token = Int

    private let lock = NSLock()
    private var next = 0
    private var subscribers: [Token: @Sendable (ShelfEvent) -> Void] = [:]

    public init() {}

    /// Calls `callback` with every event published from now on, until `unsubscribe(token)`.
    @discardableResult
    public func subscribe(_ callback: @escaping @Sendable (ShelfEvent) -> Void) -> Token {
        lock.withLock {
            next += 1
            subscribers[next] = callback
            return next
        }
    }

    public func unsubscribe(_ token: Token) {
        lock.withLock { subscribers[token] = nil }
    }

    public func publish(_ event: ShelfEvent) {
        let callbacks = lock.withLock { subscribers.sorted { $0.key < $1.key }.map(\.value) }
        for callback in callbacks { callback(event) }
    }
}
