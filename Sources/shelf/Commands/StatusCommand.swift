import Foundation
import Host

/// The badge in words; empty when no hold is ready, so that it clears.
func readyBadge(_ count: Int) -> String? {
    count > 0 ? "Ready to borrow: \(Plural.count(count, "hold")) (shelf holds)" : nil
}

let statusCommand = Command(
    name: "status", summary: "accounts, loans, holds, holds ready to borrow, unread notifications",
    usage: "shelf status [--json]",
    details: "One look at everything: each library account (signed in or not, when it last synced and whether "
        + "that failed), how many loans and holds, how many holds are ready to borrow now (the badge, gone when "
        + "none are), and the notifications not yet opened.",
    positionals: 0...0
) { _, context in
    let status = try StatusJSON(try context.library())
    if context.json {
        Output.json(status)
        return 0
    }
    let accounts = status.accounts
    if accounts.isEmpty {
        Output.line(Invitation.noLibraryYet.words(for: .terminal).line)
    } else {
        Output.line("Accounts: \(accounts.count)")
        for account in accounts {
            var facts = [account.signInRefused ? "sign-in refused" : (account.signedIn ? "signed in" : "not signed in")]
            facts.append(account.syncedAt.map { "last synced \(localDayAndTime($0))" } ?? "never synced")
            if let error = account.syncError { facts.append("last sync failed: \(error)") }
            Output.line("  \(account.id): \(account.title)\n    " + facts.joined(separator: " · "))
        }
    }
    Output.line(
        "My Books: \(Plural.count(status.loans, "loan"))"
            + (status.soonestDue.map { ", the soonest due \(localDay($0))" } ?? ""))
    Output.line("Reservations: \(Plural.count(status.holds, "hold")), \(status.readyToBorrow) ready to borrow")
    if let badge = readyBadge(status.readyToBorrow) { Output.line(badge) }
    Output.line("Notifications: \(status.unreadNotifications) unread")
    for record in status.unreadRecords { Output.line(NotificationTextOutput.lines(record)) }
    return 0
}
