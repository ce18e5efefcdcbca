import ShelfCore
import Foundation
import ShelfValues

/// Delivers what the rules made to the desktop when there is one (a terminal shows `NotificationRecord.terminalLine`).
public enum NotificationDelivery {
    /// Hands every live, unread notification the desktop has not shown to it, and closes withdrawn (and superseded)
    /// ones it still shows. One no desktop took (no notification service yet, the bus busy) is offered again at the
    /// next delivery, until it is shown or no longer holds. Returns the notifications the desktop took.
    ///
    /// A session bus without libdbus to speak to it is the one case said aloud, through `report` (stderr): the
    /// patron has a desktop and expects notifications there, and only an install brings them.
    @discardableResult
    public static func deliverToDesktop(
        _ database: LibraryDatabase,
        environment: [String: String],
        report: (String) -> Void = reportOnStderr
    ) -> [NotificationRecord] {
        // Delivery is a courtesy after a sync: unread, they stay in the database, and `shelf notifications` lists them.
        guard let pending = try? database.notificationsForDesktop(), let withdrawn = try? database.withdrawnOnDesktop(),
            !(pending.isEmpty && withdrawn.isEmpty)
        else { return [] }
        let desktop = DesktopNotifier(environment: environment)
        // Said once per notification: only those never offered before are counted.
        let fresh = pending.filter { $0.desktopAt == nil }
        if desktop == nil, !fresh.isEmpty, let problem = DesktopNotifier.libraryProblem(environment: environment) {
            let them = fresh.count == 1 ? "it" : "them"
            report(
                "\(Plural.count(fresh.count, "notification")) could not be shown on the desktop: \(problem). `shelf notifications` lists \(them)."
            )
        }
        defer { desktop?.close() }
        var taken: [NotificationRecord] = []
        for record in withdrawn {
            if let id = record.desktopID { desktop?.close(id: id) }
            // Not cleared: closed again at the next delivery, which closing twice does not harm.
            try? database.clearNotificationDesktopID(record.id)
        }
        for record in pending {
            let id = desktop?.notify(record.text)
            // Not marked: shown again at the next delivery, the lesser harm than never.
            try? database.markNotificationOnDesktop(record.id, desktopID: id)
            if id != nil { taken.append(record) }
        }
        return taken
    }

    /// Where `deliverToDesktop` says it by default: one line on stderr, like shelf's errors.
    public static func reportOnStderr(_ message: String) {
        FileHandle.standardError.write(Data("shelf: \(message)\n".utf8))
    }
}
