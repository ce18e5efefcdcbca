import Foundation

/// One step of a schema's history. Steps are only ever appended: a released step never changes, because
/// databases in the wild have already run it.
public struct SchemaMigration: Sendable {
    public let summary: String
    public let apply: @Sendable (SQLiteConnection) throws -> Void

    /// A step written as SQL, the usual case.
    public init(_ summary: String, sql: String) {
        self.summary = summary
        self.apply = { try $0.executeScript(sql) }
    }

    /// A step that needs code (moving data between shapes).
    public init(_ summary: String, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.summary = summary
        self.apply = apply
    }
}

/// Brings a database up to the last of `steps`, recording progress in `PRAGMA user_version` (step N done ⇔
/// user_version ≥ N).
public enum SchemaMigrator {
    /// Applies the missing steps, each in its own transaction together with the version bump, so a crash leaves
    /// the database at a whole step. A database newer than `steps` is refused, never downgraded.
    ///
    /// The version is read again inside each transaction: when two processes open a new database at once, the
    /// second waits for the first's write lock and then finds the step already done.
    public static func migrate(_ connection: SQLiteConnection, steps: [SchemaMigration]) throws {
        let known = steps.count
        let found = try version(of: connection)
        try refuseNewer(connection, known: known, found: found)
        // Up to date, the usual case: no write lock taken, so opening never waits for another shelf's write.
        if found == known { return }
        while true {
            let finished = try connection.transaction { () -> Bool in
                let current = try version(of: connection)
                try refuseNewer(connection, known: known, found: current)
                guard current < known else { return true }
                try steps[current].apply(connection)
                // A pragma takes no bound values; the number is ours, not input.
                try connection.execute("PRAGMA user_version = \(current + 1)")
                return false
            }
            if finished { return }
        }
    }

    public static func version(of connection: SQLiteConnection) throws -> Int {
        try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
    }

    private static func refuseNewer(_ connection: SQLiteConnection, known: Int, found: Int) throws {
        if found < 0 {
            // No shelf writes a negative version: something else wrote this header.
            throw DatabaseError(
                kind: .damaged, path: connection.path,
                message: "the \(connection.options.label) at \(connection.path) is damaged (schema version \(found) "
                    + "is not one shelf writes): move it aside and shelf will create a new one")
        }
        guard found > known else { return }
        throw DatabaseError.newerVersion(
            path: connection.path, label: connection.options.label,
            found: found, known: known)
    }
}
