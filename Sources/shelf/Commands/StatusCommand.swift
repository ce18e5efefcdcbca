import Foundation
import Host

struct StatusJSON: Encodable {
    struct Account: Encodable {
        let id: String
        let title: String
        let signedIn: Bool
        let synced: String?
        let syncError: String?
        let loans: Int
        let holds: Int
        let readyToBorrow: Int
    }

    let accounts: [Account]
    let loans: Int
    let holds: Int
    /// The badge: holds ready to borrow now (0 clears it).
    let readyToBorrow: Int
    let unreadNotifications: Int
    let notifications: [NotificationJSON]
}

/// The badge in words; empty when no hold is ready, so that it clears.
func readyBadge(_ count: Int) -> String? {
    count > 0 ? "Ready to borrow: \(count) \(count == 1 ? "hold" : "holds") (shelf holds)" : nil
}

let statusCommand = Command(
    name: "status", summary: "accounts, loans, holds, holds ready to borrow, unread notifications",
    usage: "shelf status [--json]",
    details: "One look at everything: each library account (signed in or not, when it last synced and whether "
        + "that failed), how many loans and holds, how many holds are ready to borrow now (the badge, gone when "
        + "none are), and the notifications not yet opened.",
    positionals: 0...0
) { _, context in
    let catalog = try CatalogContext(context)
    let database = catalog.database
    let now = Date()
    let loans = try database.loans()
    let holds = try database.holds()
    let unread = try database.notifications().filter(\.isUnread)
    let accounts = try database.accounts().map { account in
        StatusJSON.Account(id: account.id, title: account.title,
                           signedIn: (try? catalog.store.credential(for: account.id)) != nil,
                           synced: account.syncedAt.map(isoDate), syncError: account.syncError,
                           loans: loans.filter { $0.accountID == account.id }.count,
                           holds: holds.filter { $0.accountID == account.id }.count,
                           readyToBorrow: try database.readyHoldCount(accountID: account.id, at: now))
    }
    let ready = try database.readyHoldCount(at: now)
    if context.json {
        Output.json(StatusJSON(accounts: accounts, loans: loans.count, holds: holds.count, readyToBorrow: ready,
                               unreadNotifications: unread.count, notifications: unread.map(NotificationJSON.init)))
        return 0
    }
    if accounts.isEmpty {
        Output.line("No library accounts. Add one with `shelf account add URL`.")
    } else {
        Output.line("Accounts: \(accounts.count)")
        for account in accounts {
            var facts = [account.signedIn ? "signed in" : "not signed in"]
            facts.append(account.synced.map { "last synced \($0)" } ?? "never synced")
            if let error = account.syncError { facts.append("last sync failed: \(error)") }
            Output.line("  \(account.id): \(account.title)\n    " + facts.joined(separator: " · "))
        }
    }
    Output.line("My Books: \(loans.count) \(loans.count == 1 ? "loan" : "loans")"
                + (loans.first?.endsAt.map { ", the soonest due \(isoDate($0))" } ?? ""))
    Output.line("Reservations: \(holds.count) \(holds.count == 1 ? "hold" : "holds"), \(ready) ready to borrow")
    if let badge = readyBadge(ready) { Output.line(badge) }
    Output.line("Notifications: \(unread.count) unread")
    for record in unread { Output.line(NotificationTextOutput.lines(record)) }
    return 0
}
