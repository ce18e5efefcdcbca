import ShelfValues
import ShelfPlugins
import ShelfCore
import Foundation

/// `shelf watch`: syncs every account, runs the rules, delivers what they made, and waits; again and again.
///
/// Never two at once (`WatchLock`). An account whose sync fails is tried again later and later (twice the
/// interval after each failure in a row, up to six hours), and that wait survives between runs (the database's
/// meta table), so a systemd timer running `--once` backs off too. A failed sync changes nothing: no rules run
/// for that account, so nothing is withdrawn and no loan is said to have been returned.
public final class Watcher {
    public static let maximumBackoff: TimeInterval = 6 * 3600

    public let database: LibraryDatabase
    public let interval: TimeInterval
    public let clock: NotificationClock
    /// Syncs one account (the command line builds the client with the patron's credentials); throws on failure.
    private let sync: (AccountRecord) throws -> Void
    private let deliver: (LibraryDatabase) -> Void

    /// Seconds each round may wait for the network (a `Shelf`'s SHELF_DEADLINE).
    public let deadline: TimeInterval

    /// `deliver` hands the new notifications to the desktop (of the `Shelf`'s environment).
    public init(
        database: LibraryDatabase, interval: TimeInterval, deadline: TimeInterval, clock: NotificationClock = .system,
        deliver: @escaping (LibraryDatabase) -> Void, sync: @escaping (AccountRecord) throws -> Void
    ) {
        self.database = database
        self.interval = interval
        self.deadline = deadline
        self.clock = clock
        self.deliver = deliver
        self.sync = sync
    }

    /// One pass over every account with a loans feed.
    public func cycle() throws -> WatchCycle {
        // Each round has the network time limit of one command, and leaves none behind it: a process that also
        // serves other requests gives each of them a limit of its own again.
        CommandDeadline.begin(seconds: deadline)
        defer { CommandDeadline.end() }
        var cycle = WatchCycle()
        let before = try database.notifications().map(\.id).max() ?? 0
        for account in try database.accounts() where account.shelfURL != nil {
            let key = "watch.backoff.\(account.id)"
            let state = BackoffState(try database.meta(key))
            let now = clock.now
            if let retry = state.retryAt, retry > now {
                cycle.accounts.append(
                    WatchCycle.AccountOutcome(
                        accountID: account.id, result: "waiting", error: nil, newlyFailing: false, retryAt: retry))
                continue
            }
            do {
                try sync(account)
                // In again: a later refusal is said again (the notice of this one no longer holds).
                try database.withdrawSignInRefusedNotification(accountID: account.id)
                if state.failures > 0 {
                    try database.setMeta(key, nil)
                    cycle.changed = true
                }
                cycle.accounts.append(
                    WatchCycle.AccountOutcome(
                        accountID: account.id, result: "synced", error: nil, newlyFailing: false, retryAt: nil))
            } catch {
                let failures = state.failures + 1
                let wait = min(max(interval, Self.maximumBackoff), interval * pow(2, Double(min(failures, 20))))
                let retry = clock.now.addingTimeInterval(wait)
                try database.setMeta(key, BackoffState(failures: failures, retryAt: retry).text)
                let message = ShelfError.words(error)
                if failures == 1 { cycle.changed = true }
                if (error as? ShelfError)?.kind == .permission {
                    // Said once on the desktop (a live notice is not made again), and the notices the stored end
                    // dates allow are still made, marked as not confirmed by the library.
                    _ = try database.storeSignInRefusedNotification(account: account)
                    var engine = NotificationEngine(database: database, clock: clock)
                    engine.textSuffix = NotificationText.notConfirmed
                    try engine.evaluate(accountID: account.id)
                }
                cycle.accounts.append(
                    WatchCycle.AccountOutcome(
                        accountID: account.id, result: "failed", error: message,
                        newlyFailing: failures == 1, retryAt: retry))
            }
        }
        cycle.notifications = try database.notifications().filter { $0.id > before }.sorted { $0.id < $1.id }
        if !cycle.notifications.isEmpty { cycle.changed = true }
        deliver(database)
        return cycle
    }

    /// Runs cycles until `cycles` have run (nil: until cancelled), waiting the interval in between. `report`
    /// sees each cycle.
    public func run(cycles: Int?, report: (WatchCycle) -> Void) throws {
        var done = 0
        while true {
            let cycle = try self.cycle()
            report(cycle)
            done += 1
            if let cycles, done >= cycles { return }
            // Sleep in small steps so that Ctrl-C (or SIGTERM from systemd) ends the wait promptly.
            let end = Date().addingTimeInterval(interval)
            while Date() < end {
                if HostServices.cancelRequested { return }
                Thread.sleep(forTimeInterval: min(0.2, max(0, end.timeIntervalSinceNow)))
            }
            if HostServices.cancelRequested { return }
        }
    }

    /// Failures in a row and when to try again, kept as "N MILLISECONDS" in the meta table.
    struct BackoffState {
        var failures = 0
        var retryAt: Date?

        init(failures: Int, retryAt: Date?) {
            self.failures = failures
            self.retryAt = retryAt
        }

        init(_ text: String?) {
            let parts = (text ?? "").split(separator: " ")
            guard parts.count == 2, let count = Int(parts[0]), let ms = Int64(parts[1]) else { return }
            failures = count
            retryAt = Date(databaseMilliseconds: ms)
        }

        var text: String { "\(failures) \(retryAt?.databaseMilliseconds ?? 0)" }
    }
}
