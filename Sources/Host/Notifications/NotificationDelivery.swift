import Foundation

/// Delivers what the rules made: to the desktop when there is one, and as one line each on a terminal.
public enum NotificationDelivery {
    /// Hands every live notification not yet offered to the desktop, and closes withdrawn ones it still shows.
    /// Each is offered once: with no desktop it is marked as offered all the same, so that a stale notification
    /// does not pop up days later. Returns the notifications the desktop took.
    @discardableResult
    public static func deliverToDesktop(_ database: LibraryDatabase,
                                        environment: [String: String] = ProcessInfo.processInfo.environment) -> [NotificationRecord] {
        guard let pending = try? database.notificationsForDesktop(), let withdrawn = try? database.withdrawnOnDesktop(),
              !(pending.isEmpty && withdrawn.isEmpty) else { return [] }
        let desktop = DesktopNotifier(environment: environment)
        defer { desktop?.close() }
        var taken: [NotificationRecord] = []
        for record in withdrawn {
            if let id = record.desktopID { desktop?.close(id: id) }
            try? database.clearNotificationDesktopID(record.id)
        }
        for record in pending {
            let id = desktop?.notify(record.text)
            try? database.markNotificationOnDesktop(record.id, desktopID: id)
            if id != nil { taken.append(record) }
        }
        return taken
    }

    /// The line a terminal shows for a notification: the text, then how to open it.
    public static func terminalLine(_ record: NotificationRecord) -> String {
        "\(record.text) (shelf open-notification \(record.id))"
    }
}
