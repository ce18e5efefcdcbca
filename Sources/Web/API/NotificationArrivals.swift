import Foundation
import Host

/// Passes on the notifications another process made (`shelf watch` or `shelf sync` beside `shelf serve`): every
/// `every` seconds it asks the library database whether another process changed it (a cheap stamp), and if so
/// publishes each notification not yet published as a `notification` event, then the counts (`status`). The server's
/// own passes publish theirs through `publish(_:)`, so none is published twice.
/// Unchecked Sendable: `published` and `stamp` are read and written under `lock`; the timer runs on `queue`.
final class NotificationArrivals: @unchecked Sendable {
    private unowned let app: WebApp
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "shelf.web.notification-arrivals")
    /// Notifications up to this number were there when the server started: not news.
    private var floor: Int64 = 0
    private var published: Set<Int64> = []
    private var stamp: Int64?
    private let every: TimeInterval
    private let publishStatus: @Sendable () -> Void

    init(app: WebApp, every: TimeInterval = 1, publishStatus: @escaping @Sendable () -> Void) {
        self.app = app
        self.every = every
        self.publishStatus = publishStatus
    }

    func start() {
        lock.withLock { floor = (try? app.library().newestNotificationID()) ?? 0 }
        queue.asyncAfter(deadline: .now() + every) { [weak self] in self?.look() }
    }

    /// Publishes `notifications` (a pass of this server's own) that are not published yet.
    func publish(_ notifications: [NotificationJSON]) {
        lock.withLock {
            for notification in notifications where published.insert(notification.id).inserted {
                app.events.publish("notification", json: Data(ReadiumJSON.encode(notification).utf8))
            }
        }
    }

    private func look() {
        defer { queue.asyncAfter(deadline: .now() + every) { [weak self] in self?.look() } }
        guard let library = try? app.library(), let now = try? library.othersChangeStamp() else { return }
        let news: [NotificationJSON] = lock.withLock {
            guard now != stamp else { return [] }
            stamp = now
            return ((try? library.notifications(after: floor)) ?? []).map(NotificationJSON.init)
                .filter { !published.contains($0.id) }
        }
        guard !news.isEmpty else { return }
        publish(news)
        publishStatus()
    }
}
