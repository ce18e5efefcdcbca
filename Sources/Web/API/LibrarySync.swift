import Foundation
import Host

/// Keeps the browser up to date on its own: a sync pass over every account (loans, holds, then notifications)
/// every `interval` and when asked, with what it found published as events: `sync` (each account's result),
/// `notification` (each new one, with the seed's exact text) and `status` (the counts, the Reservations badge).
final class LibrarySync: @unchecked Sendable {
    private let host: HostAdapter
    private unowned let app: WebApp
    private let events: EventHub
    private let interval: TimeInterval?
    private let queue = DispatchQueue(label: "shelf.web.sync")

    init(host: HostAdapter, app: WebApp, events: EventHub, interval: TimeInterval?) {
        self.host = host
        self.app = app
        self.events = events
        self.interval = interval
    }

    func start() {
        guard let interval else { return }
        queue.asyncAfter(deadline: .now() + 2) { [weak self] in self?.loop(every: interval) }
    }

    private func loop(every interval: TimeInterval) {
        _ = try? pass()  // a failed pass is published as a `sync` event with its error; the next one tries again
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.loop(every: interval) }
    }

    /// A pass in the background, soon (after a sign-in, say).
    func soon() { queue.async { [weak self] in _ = try? self?.pass() } }

    /// A pass now, returning `shelf watch --once`'s document.
    func now() throws -> Data { try queue.sync { try pass() } }

    private func pass() throws -> Data {
        let data = try host.json(["watch", "--once"], accepting: [75])
        if let pass = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            events.publish("sync", object: ["accounts": pass["accounts"] ?? []])
            for notification in pass["notifications"] as? [Any] ?? [] { events.publish("notification", object: notification) }
        }
        publishStatus()
        return data
    }

    /// The counts and the badge after anything that may change them.
    func publishStatus() {
        // A status that cannot be read now is published with the next change.
        guard let status = try? StatusJSON(try app.library()) else { return }
        events.publish("status", json: Data(ReadiumJSON.encode(status).utf8))
    }
}
