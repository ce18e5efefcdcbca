internal import ShelfLibrary
internal import ShelfCore
import Foundation

extension LibrarySession {
    /// One sync of every account with a loans feed, reported as a pass of `shelf watch` is (docs/json.md), for a
    /// front end that serves a patron for hours (the browser app). Unlike the watcher's pass it begins no command
    /// deadline, which would bind every later request of the process to one limit, and keeps no back-off: an
    /// account that fails is reported and tried again at the next pass. Each account goes through the sync pipeline
    /// (loans and holds, rules, wishes, annotations, then `sinks`).
    public func syncEveryAccount(sinks: [NotificationSink]) throws -> WatchCycle {
        let pipeline = syncPipeline(sinks: sinks)
        var cycle = WatchCycle()
        for account in try database.accounts() where account.shelfURL != nil {
            do {
                let outcome = try pipeline.run(account: account.id)
                cycle.notifications += outcome.notifications
                cycle.accounts.append(
                    .init(accountID: account.id, result: "synced", error: nil, newlyFailing: false, retryAt: nil))
            } catch {
                cycle.accounts.append(
                    .init(
                        accountID: account.id, result: "failed", error: ShelfError.words(error),
                        newlyFailing: true, retryAt: nil))
            }
        }
        cycle.changed = !cycle.notifications.isEmpty || cycle.failed
        return cycle
    }
}
