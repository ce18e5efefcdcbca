import Foundation
import Host

/// Keeps the browser up to date on its own: a sync pass over every account (loans, holds, then notifications)
/// every `interval` and when asked, with what it found published as events: `sync` (each account's result),
/// `notification` (each new one, with the seed's exact text, and those other processes make: NotificationArrivals)
/// and `status` (the counts, the Reservations badge). A pass runs on a queue of its own, so a slow library keeps no
/// other request waiting.
/// Unchecked Sendable: passes run on `queue`, one at a time, and the rest is constant (`app` owns it and outlives it).
final class LibrarySync: @unchecked Sendable {
    private unowned let app: WebApp
    private let interval: TimeInterval?
    private let queue = DispatchQueue(label: "shelf.web.sync")
    /// The last pass: when, and the libraries that did not answer (read and written on `queue`).
    private var last: LibraryCheck?

    /// Reservations and My Books ask the library when opened, but no more than once in this many seconds.
    static let freshness: TimeInterval = 60
    /// "Check now" asks again, but not twice in this many seconds (a double click, a held key).
    static let forcedFreshness: TimeInterval = 5

    /// Notifications other processes make, passed on within a second or two (made in `start`, before any pass).
    private lazy var arrivals = NotificationArrivals(app: app) { [weak self] in self?.publishStatus() }

    init(app: WebApp, interval: TimeInterval?) {
        self.app = app
        self.interval = interval
    }

    func start() {
        arrivals.start()
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

    /// A page that shows loans or holds was opened (or its "Check now" pressed): a pass unless one ran within
    /// `freshness` seconds (`forcedFreshness` when forced), answered with when shelf last asked in the host's words.
    func check(force: Bool) throws -> WebResponse {
        try queue.sync {
            let fresh = force ? Self.forcedFreshness : Self.freshness
            var asked = false
            if last.map({ Date().timeIntervalSince($0.at) >= fresh }) ?? true {
                _ = try pass()
                asked = true
            }
            let check = last ?? LibraryCheck(at: Date(), unanswered: [])
            let words = check.words(for: .browser)
            return .json(
                document: CheckJSON(
                    asked: asked, checkedAt: ISO8601DateFormatter().string(from: check.at),
                    answered: check.unanswered.isEmpty,
                    message: words.sentence, hint: words.hint))
        }
    }

    /// What `POST /api/library/check` answers.
    private struct CheckJSON: Encodable {
        /// Whether the library was asked for this answer (false: a pass within the last minute stands).
        let asked: Bool
        let checkedAt: String
        /// Every library answered at that pass.
        let answered: Bool
        let message: String
        let hint: String?
    }

    private func pass() throws -> WebResponse {
        let library = try app.library()
        let started = Date()
        let pass = try library.syncEveryAccount(sinks: [DesktopSink(environment: app.shelf.environment)])
        let names = (try? LibraryNames.all(library)) ?? [:]
        last = LibraryCheck(
            at: started,
            unanswered: pass.accounts.filter { $0.result != "synced" }.map { names[$0.accountID] ?? $0.accountID })
        let document = WatchCycleJSON(pass)
        events(document)
        publishStatus()
        return .json(document: document)
    }

    private func events(_ document: WatchCycleJSON) {
        struct SyncEvent: Encodable { let accounts: [WatchCycleJSON.Account] }
        app.events.publish("sync", json: Data(ReadiumJSON.encode(SyncEvent(accounts: document.accounts)).utf8))
        arrivals.publish(document.notifications)
    }

    /// The counts and the badge after anything that may change them.
    func publishStatus() {
        // A status that cannot be read now is published with the next change.
        guard let status = try? StatusJSON(try app.library()) else { return }
        app.events.publish("status", json: Data(ReadiumJSON.encode(status).utf8))
    }
}
