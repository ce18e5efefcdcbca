internal import ShelfReader
internal import ShelfCore
internal import ShelfLibrary
internal import ShelfPlugins
import Foundation

/// Where the notifications a sync made go, once it stored them: the desktop, a terminal, the event stream.
/// `deliver` is called on the thread that runs the sync, one sync at a time per pipeline.
public protocol NotificationSink {
    /// Hands over what is new since the sync began; each sink marks what it showed in the library's database itself.
    func deliver(_ new: [NotificationRecord], library: LibrarySession)
}

/// One sync of an account, in order: the library's loans and holds replace the stored ones (`Circulation.sync`, one
/// transaction), the notification rules run on them in that transaction, wished titles are matched, reading
/// positions and bookmarks of downloaded loans are synced (`steps`), then every sink is handed the notifications
/// that are new. The pipeline is the facade's: circulation knows nothing of the rules, the wish list or the reader.
///
/// Safe from several threads as `LibrarySession` is; two syncs of one account at once are serialised by the
/// database's write transaction.
public struct SyncPipeline {
    public let library: LibrarySession
    public let sinks: [NotificationSink]

    public struct Outcome {
        public let account: AccountRecord
        public let loans: [LoanRecord]
        public let holds: [HoldRecord]
        /// The notifications made by this sync, oldest first.
        public let notifications: [NotificationRecord]

        /// This sync's notifications that still hold (not withdrawn or superseded within the sync): what it tells of.
        public var announced: [NotificationRecord] { notifications.filter(\.isLive) }
    }

    public func run(account name: String?) throws -> Outcome {
        let circulation = try library.libraryCirculation(account: name)
        let before = try newestNotificationID()
        let result: ShelfLibrary.Circulation.SyncResult
        do { result = try Self.steps(circulation) } catch let error as ShelfError { throw Self.failed(error) }
        let new = try library.database.notifications(includeWithdrawn: true).filter { $0.id > before }.sorted {
            $0.id < $1.id
        }
        for sink in sinks { sink.deliver(new, library: library) }
        library.shelf.events.publish(
            .synced(accountID: circulation.account.id, loans: result.loans.count, holds: result.holds.count))
        return Outcome(account: circulation.account, loans: result.loans, holds: result.holds, notifications: new)
    }

    /// A sync that failed, said as a sync: that nothing stored changed and to sync again later. An answer that could
    /// not be read is the library's passing trouble (a maintenance page, a feed cut short), not an address to check:
    /// the patron gave none.
    static func failed(_ error: ShelfError) -> ShelfError {
        let unchanged = "nothing stored here changed (`shelf loans` and `shelf holds` show it)"
        switch error.kind {
        case .badData:
            return ShelfError(
                .temporary,
                "the library's answer about your loans and holds could not be read (\(error.message)); \(unchanged)",
                subject: error.subject,
                next: NextStep(
                    terminal: "Libraries answer so while their servers are busy or down for maintenance: run "
                        + "`shelf sync` again later. If it lasts, tell the library.",
                    browser: "Libraries answer so while their servers are busy or down for maintenance: sync "
                        + "again later. If it lasts, tell the library."))
        case .temporary:
            var said = error
            said.next = NextStep(
                terminal: "The sync did not happen: \(unchanged). Run `shelf sync` again later.",
                browser: "The sync did not happen. Sync again later.")
            return said
        default:
            return error
        }
    }

    /// One sync before delivery: loans and holds, the rules on them, the wish list, annotations. A failed step
    /// after the loans and holds are stored is a warning and fails nothing: the next sync tries it again.
    static func steps(_ circulation: ShelfLibrary.Circulation) throws -> ShelfLibrary.Circulation.SyncResult {
        let database = circulation.database, account = circulation.account
        let result = try circulation.sync { loans, holds, clock in
            do {
                _ = try NotificationEngine(database: database, clock: clock).evaluate(
                    accountID: account.id, loans: loans, holds: holds)
            } catch {
                // The loans and holds are kept; the notifications this sync should have made are said missing.
                HostServices.warn(
                    "the notifications of \(account.title) were not updated (\(error)); `shelf sync` tries again")
            }
        }
        // What the library changed (a loan ended early, a hold cancelled or lapsed) is told once, as a notification.
        for change in result.changes {
            let text: String
            switch change.kind {
            case .loanEnded: text = NotificationText.loanEnded(change.title)
            case .holdCancelled: text = NotificationText.holdCancelled(change.title)
            case .holdLapsed: text = NotificationText.holdLapsed(change.title)
            }
            do { _ = try database.storeLibraryChangeNotification(change, text: text) } catch {
                // The change is made (the loans and holds are stored); only its telling is missing, and said so.
                HostServices.warn("\(text) (not stored as a notification: \(error))")
            }
        }
        // Then the wish list: the library is asked again about each wished title it holds, its catalog is searched
        // for wishes nothing matches yet, and a title that became free to borrow is announced (stored as a
        // notification like the ones above).
        circulation.refreshWishedEntries()
        WishSearch(client: circulation.client, database: database, account: account).run()
        do {
            _ = try WishList(database: database).check()
        } catch {
            // As for the rules: the sync stands, the wish list's news is said missing rather than lost unsaid.
            HostServices.warn(
                "the wish list was not checked against \(account.title) (\(error)); `shelf sync` tries again")
        }
        // Then reading positions and bookmarks of downloaded loans, where the library keeps annotations. A failure
        // there changes nothing stored here and does not fail the sync; it is said, as `shelf annotations sync` would.
        for (bookID, outcome) in AnnotationSync(database: database, client: circulation.client).syncLoans(
            result.storedLoans)
        {
            switch outcome {
            case .success(let outcome):
                for problem in outcome.problems { HostServices.warn("\(outcome.title): \(problem)") }
            case .failure(let error):
                HostServices.warn(
                    "the reading position and bookmarks of \(bookID) were not synced (\(ShelfError.words(error)))")
            }
        }
        return result
    }

    private func newestNotificationID() throws -> Int64 {
        try library.database.notifications(includeWithdrawn: true).map(\.id).max() ?? 0
    }
}

/// The desktop's notification server (D-Bus), as `NotificationDelivery.deliverToDesktop` speaks to it: every live
/// notification not yet offered, not only this sync's, so that one a crash kept from the desktop goes now.
public struct DesktopSink: NotificationSink, Sendable {
    public let environment: [String: String]
    public init(environment: [String: String]) { self.environment = environment }

    public func deliver(_ new: [NotificationRecord], library: LibrarySession) {
        NotificationDelivery.deliverToDesktop(library.database, environment: environment)
    }
}

/// The host's event stream (the browser app's), one `.notification` event each. (Every sync also publishes
/// `.synced` there, whatever its sinks.)
public struct EventStreamSink: NotificationSink, Sendable {
    public let events: ShelfEvents
    public init(events: ShelfEvents) { self.events = events }

    public func deliver(_ new: [NotificationRecord], library: LibrarySession) {
        for record in new { events.publish(.notification(record)) }
    }
}

/// A terminal: one line each for the notifications not yet seen on one, counted as shown there once written.
/// Delivers on the thread that runs the sync; `write` is called there, so it need not be safe from others.
public struct TerminalSink: NotificationSink {
    public let write: (String) -> Void
    public init(write: @escaping (String) -> Void) { self.write = write }

    public func deliver(_ new: [NotificationRecord], library: LibrarySession) {
        Self.announce(database: library.database, write: write)
    }

    /// Writes, once each, the notifications not yet seen on a terminal, and marks them seen there.
    static func announce(database: LibraryDatabase, write: (String) -> Void) {
        // Announcing is a courtesy around a command: a database that cannot be read now leaves them for next time.
        guard let pending = try? database.notificationsForTerminal(), !pending.isEmpty else { return }
        for record in pending { write("Notification: " + record.terminalLine) }
        // Not marked: they are announced again next time, which is the lesser harm than losing them.
        try? database.markNotificationsShownOnTerminal(pending.map(\.id))
    }

    /// As above, only when shelf's database exists already: announcing never creates one.
    public static func announce(shelf: Shelf, write: (String) -> Void) {
        guard let directories = shelf.directories,
            FileManager.default.fileExists(atPath: directories.databaseFile.path),
            // A database that cannot be opened is said by the command that needs it, not here.
            let database = try? LibraryDatabase(directories: directories)
        else { return }
        announce(database: database, write: write)
    }
}
