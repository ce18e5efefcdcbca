import Foundation
import Host

/// Keeps the browser up to date on its own: a sync pass over every account (loans, holds, then notifications)
/// every `interval` and when asked, with what it found published as events: `sync` (each account's result),
/// `notification` (each new one, with the seed's exact text) and `status` (the counts, the Reservations badge).
/// A pass runs on a queue of its own, so a slow library keeps no other request waiting.
/// Unchecked Sendable: passes run on `queue`, one at a time, and the rest is constant (`app` owns it and outlives it).
final class LibrarySync: @unchecked Sendable {
    private unowned let app: WebApp
    private let interval: TimeInterval?
    private let queue = DispatchQueue(label: "shelf.web.sync")

    init(app: WebApp, interval: TimeInterval?) {
        self.app = app
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

    /// A pass now, answered with its document (docs/json.md, `shelf watch --once --json`).
    func now() throws -> WebResponse { try queue.sync { try pass() } }

    private func pass() throws -> WebResponse {
        let library = try app.library()
        let pass = try library.syncEveryAccount(sinks: [DesktopSink(environment: app.shelf.environment)])
        let document = WatchCycleJSON(pass)
        events(document)
        publishStatus()
        return .json(document: document)
    }

    private func events(_ document: WatchCycleJSON) {
        struct SyncEvent: Encodable { let accounts: [WatchCycleJSON.Account] }
        app.events.publish("sync", json: Data(ReadiumJSON.encode(SyncEvent(accounts: document.accounts)).utf8))
        for notification in document.notifications {
            app.events.publish("notification", json: Data(ReadiumJSON.encode(notification).utf8))
        }
    }

    /// The counts and the badge after anything that may change them.
    func publishStatus() {
        // A status that cannot be read now is published with the next change.
        guard let status = try? StatusJSON(try app.library()) else { return }
        app.events.publish("status", json: Data(ReadiumJSON.encode(status).utf8))
    }
}
