import CSQLite
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// One open sqlite database file, set up the way shelf needs it: WAL, full sync, foreign keys, a busy timeout.
///
/// A connection may be shared between threads: every call, and a whole `transaction`, holds its lock. Two
/// connections (in one process or two) coordinate through sqlite's file locks and the busy timeout.
public final class SQLiteConnection: @unchecked Sendable {
    public struct Options: Sendable {
        /// How long a statement waits for another connection's lock before sqlite gives up. Two shelf processes
        /// at once are normal, and their transactions are short, so a few seconds is plenty.
        public var busyTimeout: TimeInterval
        /// How many more times `BEGIN IMMEDIATE` is tried once the busy timeout has run out.
        public var busyRetries: Int
        /// How error messages name the file ("library database").
        public var label: String

        public init(busyTimeout: TimeInterval = 5, busyRetries: Int = 2, label: String = "database") {
            self.busyTimeout = busyTimeout
            self.busyRetries = busyRetries
            self.label = label
        }
    }

    public let path: String
    public let options: Options
    private var handle: OpaquePointer?
    private let lock = NSRecursiveLock()
    private var savepointDepth = 0
    /// Statements `execute`, `query` and `scalar` compiled, kept for their next run.
    private var statements = StatementCache(capacity: 64)

    /// Opens the database at `path`, creating it and its missing parent folders (mode 0700, file 0600).
    ///
    /// Reads the file once before changing anything, so a file that is not a database is reported as damaged
    /// and left exactly as it was.
    public init(path: String, options: Options = Options()) throws {
        self.path = path
        self.options = options
        try createParentAndFile()

        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK, opened != nil else {
            let failure =
                opened.map { error(code, in: $0, while: "opening") }
                ?? DatabaseError(
                    kind: .other, path: path, sqliteCode: code,
                    message: "the \(options.label) at \(path) could not be opened (out of memory)")
            close()
            throw failure
        }
        do {
            try configure()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connection; later calls throw. Statements still held keep sqlite's side alive until released.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private func createParentAndFile() throws {
        guard path != ":memory:", !path.isEmpty else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            do {
                try ShelfDirectories.createDirectory(atPath: parent)
            } catch let failure as ShelfDirectoriesError {
                throw DatabaseError(
                    kind: failure.kind == .permission ? .permission : .other, path: path,
                    message: "the \(options.label) at \(path) could not be created: \(failure.message)")
            }
        }
        // sqlite would create the file 0644; the library says what a patron reads and which accounts they use.
        // An existing file is left alone (O_EXCL), whatever it holds.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    private func configure() throws {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(clamping: Int((options.busyTimeout * 1000).rounded())))
        // A read before any write: a damaged or foreign file fails here, before WAL files are made next to it.
        _ = try retryingWhenBusy { try query("SELECT count(*) FROM sqlite_schema") }
        let mode = try retryingWhenBusy { try query("PRAGMA journal_mode=WAL") }
        if let mode: String = try mode.first?.get(0), mode.lowercased() != "wal" {
            throw misuse("sqlite kept journal mode \(mode) instead of WAL (is the folder on a network file system?)")
        }
        // FULL: a position or bookmark written before a crash or power loss is there afterwards.
        try execute("PRAGMA synchronous=FULL")
        // A command is a short process: left to its defaults, sqlite would checkpoint the WAL into the database
        // and delete it at every close, then make it anew at the next write, five syncs for one page turn.
        // The WAL is as durable as the database (synchronous=FULL), so it stays, and checkpoints happen
        // as the WAL grows (every 1,000 pages), inside whichever command writes then.
        var persist: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        _ = shelf_sqlite_set_checkpoint_on_close(handle, 0)
        try execute("PRAGMA foreign_keys=ON")
        // Statement journals (a copy of each page an INSERT OR REPLACE or a savepoint changes, kept in case it
        // rolls back) and sorts in memory, not in temporary files: a sync wrote every changed page to /var/tmp too.
        // shelf's transactions and sorts are a few megabytes at most.
        try execute("PRAGMA temp_store=MEMORY")
    }

    // MARK: Running statements

    /// Prepares one statement for repeated use.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try locked { SQLiteStatement(connection: self, compiled: try compile(sql)) }
    }

    private func compile(_ sql: String) throws -> CompiledStatement {
        try locked {
            let handle = try openHandle()
            var statement: OpaquePointer?
            var trailingText = false
            let code = sql.withCString { text -> Int32 in
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
                if code == SQLITE_OK, let tail {
                    trailingText = !String(cString: tail).allSatisfy { $0.isWhitespace || $0 == ";" }
                }
                return code
            }
            guard code == SQLITE_OK else { throw error(code, while: "preparing \(SQLiteStatement.summarize(sql))") }
            // sqlite would silently ignore everything after the first statement: refuse it instead.
            if trailingText {
                sqlite3_finalize(statement)
                throw misuse(
                    "more than one statement in \(SQLiteStatement.summarize(sql)); use executeScript for several")
            }
            guard let statement else { throw misuse("no statement in \(SQLiteStatement.summarize(sql))") }
            return CompiledStatement(handle: statement, sql: sql)
        }
    }

    /// The statement for `sql` from the cache, compiled and kept there the first time. Only under the lock, and
    /// only for a run that ends before the lock is let go: the statement is shared by every later caller.
    private func cached(_ sql: String) throws -> CompiledStatement {
        _ = try openHandle()
        if let statement = statements.lookUp(sql) { return statement }
        let statement = try compile(sql)
        statements.keep(statement)
        return statement
    }

    /// Runs one statement with `parameters` bound in order (`?`), ignoring any rows.
    public func execute(_ sql: String, _ parameters: [any SQLiteValueConvertible] = []) throws {
        try locked { try cached(sql).run(parameters, on: self) }
    }

    /// Runs one statement with `parameters` and returns every row.
    public func query(_ sql: String, _ parameters: [any SQLiteValueConvertible] = []) throws -> [SQLiteRow] {
        try locked { try cached(sql).query(parameters, on: self) }
    }

    /// The first column of the first row as `T`, or nil when there is no row or the column holds NULL (a nullable
    /// column read as `String?` must not fail on the NULL it is allowed to hold).
    public func scalar<T: SQLiteValueConvertible>(
        _ sql: String, _ parameters: [any SQLiteValueConvertible] = [],
        as type: T.Type = T.self
    ) throws -> T? {
        guard let row = try query(sql, parameters).first else { return nil }
        return try row.get(0, as: T?.self) ?? nil
    }

    /// Runs several statements without parameters, as a migration step does.
    public func executeScript(_ sql: String) throws {
        try locked {
            let handle = try openHandle()
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(handle, sql, nil, nil, &message)
            if let message { sqlite3_free(message) }
            guard code == SQLITE_OK else { throw error(code, while: "running a script") }
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int {
        locked { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }
    }

    /// The rowid of the last row this connection inserted (unchanged by an insert that was ignored).
    public var lastInsertRowID: Int64 {
        locked { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    }

    public var isInTransaction: Bool {
        locked { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }
    }

    /// Whether this thread is inside a transaction of the connection, without waiting for another thread's: a
    /// transaction holds the (recursive) lock from BEGIN to COMMIT, so a lock this thread cannot take is another's.
    public var isInTransactionOnThisThread: Bool {
        guard lock.try() else { return false }
        defer { lock.unlock() }
        return handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    // MARK: Transactions

    /// Runs `body` in a write transaction and commits it; rolls back and rethrows when `body` throws.
    ///
    /// The transaction starts with `BEGIN IMMEDIATE`, taking the write lock up front: a deferred transaction
    /// that reads first and writes later can fail with SQLITE_BUSY halfway, which no busy timeout can fix.
    /// Taking the lock is retried when another process holds it longer than the busy timeout; `body` itself
    /// runs once. Inside another transaction, `body` runs in a savepoint, so it still rolls back alone.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try locked {
            if isInTransaction { return try savepoint(body) }
            try retryingWhenBusy { try execute("BEGIN IMMEDIATE") }
            let result: T
            do {
                result = try body()
                try execute("COMMIT")
            } catch {
                rollbackAfterFailure()
                throw error
            }
            return result
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "shelf_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            // ROLLBACK TO keeps the savepoint open; RELEASE then drops it, leaving the outer transaction as it was.
            try? execute("ROLLBACK TO \(name)")
            // As above; the error thrown is the one that failed the work.
            try? execute("RELEASE \(name)")
            throw error
        }
    }

    private func rollbackAfterFailure() {
        // sqlite may already have rolled back by itself (after some I/O errors); a second ROLLBACK would fail.
        if isInTransaction { try? execute("ROLLBACK") }
    }

    /// Runs `attempt`, trying again with a growing pause when it fails because another connection holds a lock.
    public func retryingWhenBusy<T>(_ attempt: () throws -> T) throws -> T {
        var retriesLeft = options.busyRetries
        var pause: useconds_t = 20_000
        while true {
            do {
                return try attempt()
            } catch let failure as DatabaseError where failure.kind == .busy && retriesLeft > 0 {
                retriesLeft -= 1
                usleep(pause + useconds_t.random(in: 0...pause))
                pause *= 2
            }
        }
    }

    // MARK: Internals shared with statements

    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A statement outlives a closed connection on sqlite's side; refuse to run it rather than write after close.
    public func requireOpen() throws { _ = try openHandle() }

    private func openHandle() throws -> OpaquePointer {
        guard let handle else { throw misuse("the connection is closed") }
        return handle
    }

    public func error(_ code: Int32, while context: String) -> DatabaseError {
        guard let handle else { return misuse("the connection is closed") }
        return error(code, in: handle, while: context)
    }

    private func error(_ code: Int32, in handle: OpaquePointer, while context: String) -> DatabaseError {
        // The connection's last error is more precise (extended) than the code a call returned, when they agree.
        let last = sqlite3_extended_errcode(handle)
        let precise = (last & 0xff) == (code & 0xff) ? last : code
        let said = String(cString: sqlite3_errmsg(handle))
        return DatabaseError.fromSQLite(
            code: precise, sqliteMessage: said, systemErrno: sqlite3_system_errno(handle),
            path: path, label: options.label, context: context)
    }

    public func misuse(_ what: String) -> DatabaseError {
        DatabaseError.misuse(path: path, label: options.label, what)
    }
}
