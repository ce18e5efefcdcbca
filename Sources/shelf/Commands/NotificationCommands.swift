import Foundation
import Glibc
import Host

/// Notification, status and watcher commands; registered in main.swift.
let notificationCommands: [Command] = [notificationsCommand, openNotificationCommand, statusCommand, watchCommand]

enum NotificationTextOutput {
    /// One notification in words: the text, then its state, where it leads and how to open it.
    static func lines(_ record: NotificationRecord) -> String {
        let state = record.state.prefix(1).uppercased() + record.state.dropFirst()
        return "  \(record.text)\n    \(state) · opens \(record.route.words) · shelf open-notification \(record.id)"
    }
}

/// Shows, once each, the notifications not yet seen on a terminal, one line each on stderr. Only on a terminal,
/// never with --json, and never creating a database that does not exist yet.
func announceNotificationsOnTerminal(json: Bool, shelf: Shelf) {
    guard !json, isatty(STDERR_FILENO) == 1 else { return }
    TerminalSink.announce(shelf: shelf) { Output.standardError($0 + "\n") }
}

// MARK: Commands

let notificationsCommand = Command(
    name: "notifications", summary: "notifications about holds, loans and wished titles",
    usage: "shelf notifications [--all] [--json]",
    details: "Lists the notifications not yet opened, newest first: holds ready to borrow, loans with one week or "
        + "one day left, loans that were returned when their period ended, wished titles available to borrow now. --all lists every one, including those "
        + "opened and those withdrawn because they no longer hold (the hold was borrowed, the loan renewed or "
        + "returned). `shelf open-notification ID` goes where one leads.",
    flagOptions: ["--all"], positionals: 0...0
) { args, context in
    let library = try context.library()
    let all = args.has("--all")
    let records = try library.notifications(all: all)
    if context.json { Output.json(records.map(NotificationJSON.init)); return 0 }
    if records.isEmpty {
        Output.line(EmptyListing.notifications(all: all).words(for: .terminal).line)
        return 0
    }
    Output.line(all ? "Notifications: \(records.count)" : "Notifications: \(records.count) unread")
    for record in records { Output.line(NotificationTextOutput.lines(record)) }
    return 0
}

let openNotificationCommand = Command(
    name: "open-notification", summary: "go where a notification leads",
    usage: "shelf open-notification ID [--book] [--json]",
    details: "Marks the notification read and shows where it leads: Reservations for holds, My Books for loans; "
        + "with --book, the title's details instead. --json prints the notification and its route "
        + "(reservations, loans or book:ID) for a program to follow.",
    flagOptions: ["--book"], positionals: 1...1
) { args, context in
    let library = try context.library()
    guard let id = Int64(args.positionals[0]), let record = try library.openNotification(id) else {
        throw CommandLookup.noNotification(id: args.positionals[0]).error
    }
    let route = args.has("--book") ? record.bookRoute : record.route
    if context.json {
        Output.json(OpenNotificationJSON(notification: record, route: route))
        return 0
    }
    Output.line(record.text)
    Output.line(
        CommandNotice.openingNotification(place: route.words, route: route.description).words(for: .terminal).line)
    Output.line("")
    let account = record.accountID.isEmpty ? [] : ["--account", record.accountID]
    let target: Command
    var words = account
    switch route {
    case .reservations: target = holdsCommand
    case .loans: target = loansCommand
    case .accounts:
        target = accountCommand
        words = ["list"]
    case .book(let entryID):
        target = bookCommand
        words = [entryID] + account
    }
    let targetArgs = try Arguments(words, valueOptions: target.valueOptions, flagOptions: target.flagOptions)
    return try target.run(targetArgs, context)
}
