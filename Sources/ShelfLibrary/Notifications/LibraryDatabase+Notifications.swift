import ShelfValues
import ShelfCore
import Foundation

/// Notifications and the loans the last sync saw. Every write is one transaction.
extension LibraryDatabase {
    /// Notifications, newest first: the live ones, or with `includeWithdrawn` every one ever made.
    public func notifications(accountID: String? = nil, includeWithdrawn: Bool = false) throws -> [NotificationRecord] {
        var conditions: [String] = []
        var parameters: [any SQLiteValueConvertible] = []
        if !includeWithdrawn { conditions.append("withdrawn_at IS NULL") }
        if let accountID {
            conditions.append("account_id = ?")
            parameters.append(accountID)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try connection.query(
            "SELECT * FROM notifications \(filter) ORDER BY created_at DESC, id DESC", parameters
        )
        .map(decodeNotification)
    }

    public func notification(id: Int64) throws -> NotificationRecord? {
        try connection.query("SELECT * FROM notifications WHERE id = ?", [id]).first.map(decodeNotification)
    }

    /// Live notifications not yet shown on a terminal, oldest first.
    public func notificationsForTerminal() throws -> [NotificationRecord] {
        try connection.query(
            "SELECT * FROM notifications WHERE withdrawn_at IS NULL AND terminal_at IS NULL AND read_at IS NULL ORDER BY created_at, id"
        )
        .map(decodeNotification)
    }

    /// Live, unread notifications the desktop has not shown yet, oldest first: never offered, or offered when no
    /// desktop took them (no notification service yet, the bus busy), to be offered again until shown or superseded.
    public func notificationsForDesktop() throws -> [NotificationRecord] {
        try connection.query(
            """
            SELECT * FROM notifications WHERE withdrawn_at IS NULL AND read_at IS NULL AND desktop_id IS NULL
            ORDER BY created_at, id
            """
        ).map(decodeNotification)
    }

    /// Withdrawn notifications the desktop still shows (to close them there).
    public func withdrawnOnDesktop() throws -> [NotificationRecord] {
        try connection.query(
            "SELECT * FROM notifications WHERE withdrawn_at IS NOT NULL AND desktop_id IS NOT NULL ORDER BY id"
        )
        .map(decodeNotification)
    }

    public func markNotificationsShownOnTerminal(_ ids: [Int64], at date: Date = Date()) throws {
        guard !ids.isEmpty else { return }
        try connection.transaction {
            for id in ids {
                try connection.execute(
                    "UPDATE notifications SET terminal_at = ? WHERE id = ? AND terminal_at IS NULL",
                    [date.databaseMilliseconds, id])
            }
        }
    }

    /// Records a desktop delivery (`desktopID`, the service's id) or an attempt no desktop took (`desktopID` nil):
    /// `desktop_at` keeps the first attempt, so that a problem is reported once however often it is retried.
    public func markNotificationOnDesktop(_ id: Int64, desktopID: UInt32?, at date: Date = Date()) throws {
        try connection.transaction {
            try connection.execute(
                "UPDATE notifications SET desktop_at = COALESCE(desktop_at, ?), desktop_id = ? WHERE id = ?",
                [date.databaseMilliseconds, desktopID.map(Int64.init), id])
        }
    }

    /// Forgets the desktop's id once the desktop was asked to close it.
    public func clearNotificationDesktopID(_ id: Int64) throws {
        try connection.transaction {
            try connection.execute("UPDATE notifications SET desktop_id = NULL WHERE id = ?", [id])
        }
    }

    /// Marks it read; false when there is no such notification.
    @discardableResult
    public func markNotificationRead(_ id: Int64, at date: Date = Date()) throws -> Bool {
        try connection.transaction {
            try connection.execute(
                "UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ?",
                [date.databaseMilliseconds, id])
            return connection.changes > 0
        }
    }

    /// Withdraws the live notifications of one loan or hold (of the given kinds).
    public func withdrawNotifications(
        accountID: String, entryID: String, kinds: [NotificationKind],
        at date: Date = Date()
    ) throws {
        try connection.transaction {
            for kind in kinds {
                try connection.execute(
                    """
                    UPDATE notifications SET withdrawn_at = ?
                    WHERE account_id = ? AND entry_id = ? AND kind = ? AND withdrawn_at IS NULL
                    """, [date.databaseMilliseconds, accountID, entryID, kind.rawValue])
            }
        }
    }

    /// The patron returned the loan (`shelf return`): it must never be reported as "has been returned" when its
    /// end passes, and its week and day notices no longer hold.
    public func loanReturnedByPatron(accountID: String, entryID: String, at date: Date = Date()) throws {
        try connection.transaction {
            try connection.execute(
                "DELETE FROM notification_loans WHERE account_id = ? AND entry_id = ?", [accountID, entryID])
            try withdrawNotifications(accountID: accountID, entryID: entryID, kinds: [.loanWeek, .loanDay], at: date)
        }
    }

    /// Holds ready to borrow now (the badge): ready, and not run out at `date`. A branch hold's copy is picked up at
    /// its branch, never borrowed here (`TitleOffer`), so it is not counted (a hold of no branch keeps ''; see `holdKey`).
    public func readyHoldCount(accountID: String? = nil, at date: Date = Date()) throws -> Int {
        let now = date.databaseMilliseconds
        if let accountID {
            return try connection.scalar(
                "SELECT count(*) FROM holds WHERE state = 'ready' AND branch = '' AND (ends_at IS NULL OR ends_at > ?) "
                    + "AND account_id = ?",
                [now, accountID], as: Int.self) ?? 0
        }
        return try connection.scalar(
            "SELECT count(*) FROM holds WHERE state = 'ready' AND branch = '' AND (ends_at IS NULL OR ends_at > ?)",
            [now], as: Int.self) ?? 0
    }

    public func unreadNotificationCount() throws -> Int {
        try connection.scalar(
            "SELECT count(*) FROM notifications WHERE withdrawn_at IS NULL AND read_at IS NULL", as: Int.self) ?? 0
    }

    // MARK: The rules' bookkeeping

    /// Loans as the last successful sync saw them.
    func notificationLoans(accountID: String) throws -> [NotificationRules.Subject] {
        try connection.query(
            "SELECT entry_id, title, ends_at FROM notification_loans WHERE account_id = ?", [accountID]
        ).map { row in
            NotificationRules.Subject(
                entryID: try row.get("entry_id"), title: try row.get("title"),
                endsAt: (try row.get("ends_at") as Int64?).map(Date.init(databaseMilliseconds:)))
        }
    }

    /// Applies a decision and remembers `loans` as the loans seen (`previousLoans`, as read in this transaction, is
    /// what was remembered: only the difference is written); returns the notifications actually made (another
    /// shelf may have made the same one a moment before: the unique index keeps one).
    func applyNotificationDecision(
        _ decision: NotificationRules.Decision, accountID: String,
        loans: [NotificationRules.Subject], previousLoans: [NotificationRules.Subject],
        at date: Date, textSuffix: String = ""
    ) throws -> [NotificationRecord] {
        try connection.transaction {
            let now = date.databaseMilliseconds
            for id in decision.withdraw {
                try connection.execute(
                    "UPDATE notifications SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL", [now, id])
            }
            for id in decision.supersede {
                try connection.execute(
                    "UPDATE notifications SET withdrawn_at = ?, superseded_at = ? WHERE id = ? AND withdrawn_at IS NULL",
                    [now, now, id])
            }
            var made: [NotificationRecord] = []
            for var fire in decision.fire {
                fire.text += textSuffix
                let route = fire.kind.route(entryID: fire.entryID), bookRoute = NotificationRoute.book(fire.entryID)
                let endsAt = fire.endsAt?.databaseMilliseconds
                try connection.execute(
                    """
                    INSERT OR IGNORE INTO notifications (account_id, entry_id, kind, title, text, route, book_route, ends_at, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        accountID, fire.entryID, fire.kind.rawValue, fire.title, fire.text, route.description,
                        bookRoute.description, endsAt, now
                    ])
                guard connection.changes > 0 else { continue }
                // The row as reading it back would give (a read per notification was a fifth of a first sync).
                made.append(
                    NotificationRecord(
                        id: connection.lastInsertRowID, accountID: accountID, entryID: fire.entryID, kind: fire.kind,
                        title: fire.title,
                        text: fire.text, route: route, bookRoute: bookRoute,
                        endsAt: endsAt.map(Date.init(databaseMilliseconds:)),
                        createdAt: Date(databaseMilliseconds: now)))
            }
            let seen = Dictionary(loans.map { ($0.entryID, $0) }, uniquingKeysWith: { _, last in last })
            let before = Dictionary(previousLoans.map { ($0.entryID, $0) }, uniquingKeysWith: { _, last in last })
            for gone in before.keys where seen[gone] == nil {
                try connection.execute(
                    "DELETE FROM notification_loans WHERE account_id = ? AND entry_id = ?", [accountID, gone])
            }
            for loan in seen.values where before[loan.entryID].map({ !Self.sameAsStored($0, loan) }) ?? true {
                try connection.execute(
                    "INSERT OR REPLACE INTO notification_loans (account_id, entry_id, title, ends_at) VALUES (?, ?, ?, ?)",
                    [accountID, loan.entryID, loan.title, loan.endsAt?.databaseMilliseconds])
            }
            return made
        }
    }

    /// Whether storing `loan` would leave the row read back as `stored` unchanged (times kept to the millisecond).
    private static func sameAsStored(_ stored: NotificationRules.Subject, _ loan: NotificationRules.Subject) -> Bool {
        stored.title == loan.title && stored.endsAt?.databaseMilliseconds == loan.endsAt?.databaseMilliseconds
    }

    /// Stores a wished title's availability notice (once: the unique index keeps one live per title); returns
    /// its id, or nil when one was live already.
    func storeWishNotification(accountID: String, entryID: String, title: String, text: String, at date: Date) throws
        -> Int64?
    {
        try connection.transaction {
            let kind = NotificationKind.wishAvailable
            try connection.execute(
                """
                INSERT OR IGNORE INTO notifications (account_id, entry_id, kind, title, text, route, book_route, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    accountID, entryID, kind.rawValue, title, text, kind.route(entryID: entryID).description,
                    NotificationRoute.book(entryID).description, date.databaseMilliseconds
                ])
            guard connection.changes > 0 else { return nil }
            return try connection.scalar("SELECT last_insert_rowid()", as: Int64.self)
        }
    }

    /// Stores the notice of a change the library made (`LibraryChange`), replacing a live one of the same title and
    /// kind (an earlier change's); its id.
    public func storeLibraryChangeNotification(_ change: LibraryChange, text: String, at date: Date = Date()) throws
        -> Int64?
    {
        let kind: NotificationKind
        switch change.kind {
        case .loanEnded: kind = .loanEnded
        case .holdCancelled: kind = .holdCancelled
        case .holdLapsed: kind = .holdLapsed
        }
        return try connection.transaction {
            try connection.execute(
                "UPDATE notifications SET withdrawn_at = ? WHERE account_id = ? AND entry_id = ? AND kind = ? AND withdrawn_at IS NULL",
                [date.databaseMilliseconds, change.accountID, change.entryID, kind.rawValue])
            try connection.execute(
                """
                INSERT INTO notifications (account_id, entry_id, kind, title, text, route, book_route, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    change.accountID, change.entryID, kind.rawValue, change.title, text,
                    kind.route(entryID: change.entryID).description,
                    NotificationRoute.book(change.entryID).description, date.databaseMilliseconds
                ])
            return try connection.scalar("SELECT last_insert_rowid()", as: Int64.self)
        }
    }

    /// Says once that the library refused `account`'s sign-in (a live notice of it is not made again); its id, or
    /// nil when one is live already.
    public func storeSignInRefusedNotification(account: AccountRecord, at date: Date = Date()) throws -> Int64? {
        try connection.transaction {
            let kind = NotificationKind.signInRefused
            try connection.execute(
                """
                INSERT OR IGNORE INTO notifications (account_id, entry_id, kind, title, text, route, book_route, created_at)
                VALUES (?, '', ?, ?, ?, ?, ?, ?)
                """,
                [
                    account.id, kind.rawValue, account.title, NotificationText.signInRefused(account.title),
                    kind.route(entryID: "").description, kind.route(entryID: "").description,
                    date.databaseMilliseconds
                ])
            guard connection.changes > 0 else { return nil }
            return try connection.scalar("SELECT last_insert_rowid()", as: Int64.self)
        }
    }

    /// Withdraws the refused-sign-in notice of `accountID`: a sync got in, so a later refusal is said again.
    public func withdrawSignInRefusedNotification(accountID: String, at date: Date = Date()) throws {
        try connection.execute(
            "UPDATE notifications SET withdrawn_at = ? WHERE account_id = ? AND kind = 'sign-in-refused' AND withdrawn_at IS NULL",
            [date.databaseMilliseconds, accountID])
    }

    /// The live wish notices, as (account, entry).
    func liveWishNotifications() throws -> [(accountID: String, entryID: String)] {
        try connection.query(
            "SELECT account_id, entry_id FROM notifications WHERE kind = 'wish-available' AND withdrawn_at IS NULL"
        )
        .map { (try $0.get("account_id"), try $0.get("entry_id")) }
    }

    func liveNotificationsForRules(accountID: String) throws -> [NotificationRules.Live] {
        try connection.query(
            "SELECT id, entry_id, kind FROM notifications WHERE account_id = ? AND withdrawn_at IS NULL AND kind <> 'wish-available'",
            [accountID]
        )
        .compactMap { row in
            guard let kind = NotificationKind(rawValue: try row.get("kind")) else { return nil }
            return NotificationRules.Live(id: try row.get("id"), entryID: try row.get("entry_id"), kind: kind)
        }
    }

    private func decodeNotification(_ row: SQLiteRow) throws -> NotificationRecord {
        func date(_ column: String) throws -> Date? {
            (try row.get(column) as Int64?).map(Date.init(databaseMilliseconds:))
        }
        let kindText: String = try row.get("kind")
        let entryID: String = try row.get("entry_id")
        guard let kind = NotificationKind(rawValue: kindText) else {
            throw DatabaseError(
                kind: .damaged, path: path,
                message: "the library database at \(path) holds a notification of an unknown kind (\(kindText))")
        }
        return NotificationRecord(
            id: try row.get("id"), accountID: try row.get("account_id"), entryID: entryID, kind: kind,
            title: try row.get("title"), text: try row.get("text"),
            route: NotificationRoute(try row.get("route")) ?? kind.route(entryID: entryID),
            bookRoute: NotificationRoute(try row.get("book_route")) ?? .book(entryID),
            endsAt: try date("ends_at"), createdAt: try date("created_at") ?? Date(timeIntervalSince1970: 0),
            withdrawnAt: try date("withdrawn_at"), supersededAt: try date("superseded_at"), readAt: try date("read_at"),
            terminalAt: try date("terminal_at"),
            desktopAt: try date("desktop_at"),
            desktopID: (try row.get("desktop_id") as Int64?).map { UInt32(truncatingIfNeeded: $0) })
    }
}
