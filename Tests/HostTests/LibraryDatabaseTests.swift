import Foundation
import XCTest
#if canImport(Glibc)
    import Glibc
#endif
@testable import Host
@testable import ShelfCore
import ShelfReader
import TestSupport
@testable import ShelfLibrary
@testable import ShelfPlayback

final class LibraryDatabaseTests: XCTestCase {
    private var folder: URL!
    private var databasePath: String { folder.appendingPathComponent("nested/data/library.sqlite3").path }

    override func setUpWithError() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("shelf-db-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    // Whole seconds, so that the millisecond storage gives back an equal Date.
    private func book(_ id: String, title: String? = nil, authors: [String] = ["Ursula K. Le Guin"]) -> BookRecord {
        BookRecord(
            id: id, path: "/books/\(id).epub", sourceURI: "https://library.example/\(id)",
            mediaType: "application/epub+zip", pluginID: "org.shelf.epub3", title: title ?? "Title \(id)",
            authors: authors, addedAt: Date(timeIntervalSince1970: 1_700_000_000),
            openedAt: Date(timeIntervalSince1970: 1_700_000_100))
    }

    private func assertDatabaseError(
        _ kind: DatabaseError.Kind, _ expression: @autoclosure () throws -> Void,
        file: StaticString = #filePath, line: UInt = #line,
        _ check: (DatabaseError) -> Void = { _ in }
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard let failure = error as? DatabaseError else {
                return XCTFail("not a DatabaseError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(failure.kind, kind, failure.message, file: file, line: line)
            check(failure)
        }
    }

    // MARK: Opening and the schema

    func testANewDatabaseIsCreatedWithItsFoldersAndTheCurrentSchema() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        XCTAssertEqual(try SchemaMigrator.version(of: database.connection), LibraryDatabase.schemaVersion)
        XCTAssertGreaterThanOrEqual(LibraryDatabase.schemaVersion, 1)
        let tables = try database.connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .map { try $0.get(0, as: String.self) }
        // Later migrations add tables; the first ones must always be there.
        XCTAssertTrue(Set(["books", "meta", "positions"]).isSubset(of: Set(tables)), tables.description)
        var info = stat()
        XCTAssertEqual(stat(databasePath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the library is private to the patron")
    }

    func testWALFullSyncAndForeignKeysAreReallyOn() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        let connection = database.connection
        XCTAssertEqual(try connection.scalar("PRAGMA journal_mode", as: String.self), "wal")
        XCTAssertEqual(try connection.scalar("PRAGMA synchronous", as: Int.self), 2, "2 is FULL")
        XCTAssertEqual(try connection.scalar("PRAGMA foreign_keys", as: Int.self), 1)
        XCTAssertEqual(try connection.scalar("PRAGMA busy_timeout", as: Int.self), 5000)
        try database.upsertBook(book("a"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath + "-wal"), "a write goes to the WAL")
        // Foreign keys enforced, not just declared: a position for an unknown book is refused.
        assertDatabaseError(.constraint, try database.savePosition(ReadingPosition(bookID: "nobody", locator: "{}")))
    }

    func testMigrationsApplyOnceInOrderAndPersist() throws {
        final class Log: @unchecked Sendable { var applied: [String] = [] }
        let log = Log()
        let first = SchemaMigration(
            "one",
            apply: { connection in
                log.applied.append("one")
                try connection.executeScript("CREATE TABLE one (x INTEGER);")
            })
        let second = SchemaMigration(
            "two",
            apply: { connection in
                log.applied.append("two")
                try connection.execute("INSERT INTO one (x) VALUES (?)", [42])
            })
        let path = folder.appendingPathComponent("migrations.sqlite3").path

        var connection: SQLiteConnection? = try SQLiteConnection(path: path)
        try SchemaMigrator.migrate(connection!, steps: [first])
        try SchemaMigrator.migrate(connection!, steps: [first])
        XCTAssertEqual(log.applied, ["one"])
        XCTAssertEqual(try SchemaMigrator.version(of: connection!), 1)
        connection = nil

        // A later shelf appends a step: only the new one runs, and the version survives reopening.
        connection = try SQLiteConnection(path: path)
        XCTAssertEqual(try SchemaMigrator.version(of: connection!), 1)
        try SchemaMigrator.migrate(connection!, steps: [first, second])
        XCTAssertEqual(log.applied, ["one", "two"])
        XCTAssertEqual(try SchemaMigrator.version(of: connection!), 2)
        XCTAssertEqual(try connection!.scalar("SELECT count(*) FROM one", as: Int.self), 1)
        connection = nil

        connection = try SQLiteConnection(path: path)
        try SchemaMigrator.migrate(connection!, steps: [first, second])
        XCTAssertEqual(log.applied, ["one", "two"], "nothing runs twice")
    }

    func testAFailingStepLeavesTheDatabaseAtTheLastWholeStep() throws {
        struct Boom: Error {}
        let path = folder.appendingPathComponent("half.sqlite3").path
        let connection = try SQLiteConnection(path: path)
        let steps = [
            SchemaMigration("one", sql: "CREATE TABLE one (x INTEGER);"),
            SchemaMigration(
                "two",
                apply: { connection in
                    try connection.executeScript("CREATE TABLE two (y INTEGER);")
                    throw Boom()
                })
        ]
        XCTAssertThrowsError(try SchemaMigrator.migrate(connection, steps: steps)) { XCTAssertTrue($0 is Boom) }
        XCTAssertEqual(try SchemaMigrator.version(of: connection), 1)
        let tables = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'").map {
            try $0.get(0, as: String.self)
        }
        XCTAssertEqual(tables, ["one"], "step two's table went with its transaction")
    }

    func testADatabaseFromANewerShelfIsRefusedAndLeftAlone() throws {
        try LibraryDatabase(path: databasePath).close()
        let newer = LibraryDatabase.schemaVersion + 5
        do {
            let raw = try SQLiteConnection(path: databasePath)
            try raw.execute("PRAGMA user_version = \(newer)")
            raw.close()
        }
        assertDatabaseError(.newerVersion, try LibraryDatabase(path: databasePath).close()) { failure in
            XCTAssertTrue(failure.message.contains(self.databasePath), failure.message)
            XCTAssertTrue(failure.message.contains("newer shelf"), failure.message)
            XCTAssertTrue(failure.message.contains("\(newer)"), failure.message)
        }
        let raw = try SQLiteConnection(path: databasePath)
        defer { raw.close() }
        XCTAssertEqual(try SchemaMigrator.version(of: raw), newer, "never downgraded")
    }

    // MARK: Damaged files

    private func assertDamagedAndUntouched(_ contents: Data, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let path = folder.appendingPathComponent("damaged-\(UUID().uuidString).sqlite3").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: contents), file: file, line: line)
        assertDatabaseError(
            .damaged,
            try {
                // Damage may show at open or at the first read of a table; either way it is the damaged error.
                let database = try LibraryDatabase(path: path)
                defer { database.close() }
                _ = try database.books()
                _ = try database.connection.query("SELECT * FROM positions")
            }(), file: file, line: line
        ) { failure in
            XCTAssertTrue(failure.message.contains(path), failure.message, file: file, line: line)
            XCTAssertTrue(failure.message.contains("is damaged"), failure.message, file: file, line: line)
            XCTAssertTrue(failure.message.contains("move it aside"), failure.message, file: file, line: line)
        }
        XCTAssertEqual(
            FileManager.default.contents(atPath: path), contents, "the file is untouched", file: file, line: line)
    }

    func testAFileThatIsNotADatabaseIsReportedDamagedAndUntouched() throws {
        try assertDamagedAndUntouched(
            Data(
                String(
                    repeating: "Chapter one. It was a dark and stormy night.\n",
                    count: 200
                ).utf8))
    }

    func testRandomBytesAreReportedDamagedAndUntouched() throws {
        var generator = SystemRandomNumberGenerator()
        try assertDamagedAndUntouched(Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    func testAValidHeaderOverGarbageIsReportedDamaged() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = Array("SQLite format 3\0".utf8)
        bytes += (bytes.count..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try assertDamagedAndUntouched(Data(bytes))
    }

    func testATruncatedDatabaseIsReportedDamagedAndUntouched() throws {
        // A real library spread over many pages, checkpointed into the main file, then cut short.
        let source = folder.appendingPathComponent("whole.sqlite3").path
        do {
            let database = try LibraryDatabase(path: source)
            try database.connection.transaction {
                for index in 0..<400 {
                    try database.upsertBook(book("book-\(index)", title: String(repeating: "long title ", count: 20)))
                    try database.savePosition(
                        ReadingPosition(
                            bookID: "book-\(index)",
                            locator: #"{"href":"chapter.xhtml","locations":{"progression":0.5}}"#,
                            updatedAt: Date(timeIntervalSince1970: 1_700_000_000)))
                }
            }
            try database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            database.close()
        }
        let whole = try XCTUnwrap(FileManager.default.contents(atPath: source))
        XCTAssertGreaterThan(whole.count, 40_000)
        try assertDamagedAndUntouched(whole.prefix(whole.count / 3))
    }

    // MARK: Books, positions, meta

    func testReopeningKeepsBooksPositionsAndMeta() throws {
        let position = ReadingPosition(
            bookID: "earthsea",
            locator: #"{"href":"ch3.xhtml","type":"application/xhtml+xml","locations":{"progression":0.25}}"#,
            updatedAt: Date(timeIntervalSince1970: 1_700_000_500.123))
        do {
            let database = try LibraryDatabase(path: databasePath)
            try database.upsertBook(book("earthsea", title: "A Wizard of Earthsea"))
            try database.upsertBook(book("dispossessed", title: "The Dispossessed", authors: []))
            try database.savePosition(position)
            try database.setMeta("library-id", "d6c1")
            database.close()
        }
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        XCTAssertEqual(try database.book(id: "earthsea"), book("earthsea", title: "A Wizard of Earthsea"))
        XCTAssertEqual(try database.books().map(\.id), ["earthsea", "dispossessed"], "by title")
        XCTAssertEqual(try database.book(id: "dispossessed")?.authors, [])
        XCTAssertNil(try database.book(id: "missing"))
        let loaded = try XCTUnwrap(try database.position(bookID: "earthsea"))
        XCTAssertEqual(loaded.locator, position.locator)
        XCTAssertEqual(loaded.updatedAt.timeIntervalSince1970, 1_700_000_500.123, accuracy: 0.0005)
        XCTAssertNil(try database.position(bookID: "dispossessed"))
        XCTAssertEqual(try database.meta("library-id"), "d6c1")
        XCTAssertNil(try database.meta("missing"))
    }

    func testUpsertUpdatesFieldsButKeepsAddedAtAndThePosition() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertBook(book("a"))
        try database.savePosition(ReadingPosition(bookID: "a", locator: #"{"href":"one"}"#))
        var changed = book("a", title: "New title", authors: ["A", "B \"quoted\""])
        changed.addedAt = Date(timeIntervalSince1970: 1_800_000_000)
        changed.path = nil
        changed.openedAt = nil
        try database.upsertBook(changed)
        let stored = try XCTUnwrap(try database.book(id: "a"))
        XCTAssertEqual(stored.title, "New title")
        XCTAssertEqual(stored.authors, ["A", "B \"quoted\""])
        XCTAssertNil(stored.path)
        XCTAssertNil(stored.openedAt)
        XCTAssertEqual(stored.addedAt, Date(timeIntervalSince1970: 1_700_000_000), "added once, not at every update")
        XCTAssertEqual(
            try database.position(bookID: "a")?.locator, #"{"href":"one"}"#,
            "an upsert must not delete and re-insert (which would cascade)")
        XCTAssertTrue(try database.markOpened(id: "a", at: Date(timeIntervalSince1970: 1_750_000_000)))
        XCTAssertEqual(try database.book(id: "a")?.openedAt, Date(timeIntervalSince1970: 1_750_000_000))
        XCTAssertFalse(try database.markOpened(id: "missing"))
    }

    func testSavingAPositionReplacesThePreviousOne() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertBook(book("a"))
        try database.savePosition(ReadingPosition(bookID: "a", locator: #"{"href":"one"}"#))
        try database.savePosition(ReadingPosition(bookID: "a", locator: #"{"href":"two"}"#))
        XCTAssertEqual(try database.position(bookID: "a")?.locator, #"{"href":"two"}"#)
        XCTAssertEqual(try database.connection.scalar("SELECT count(*) FROM positions", as: Int.self), 1)
        assertDatabaseError(.constraint, try database.savePosition(ReadingPosition(bookID: "a", locator: "not json")))
        XCTAssertEqual(try database.position(bookID: "a")?.locator, #"{"href":"two"}"#)
    }

    func testDeletingABookDeletesItsPosition() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertBook(book("a"))
        try database.upsertBook(book("b"))
        try database.savePosition(ReadingPosition(bookID: "a", locator: "{}"))
        try database.savePosition(ReadingPosition(bookID: "b", locator: "{}"))
        XCTAssertTrue(try database.deleteBook(id: "a"))
        XCTAssertFalse(try database.deleteBook(id: "a"))
        XCTAssertNil(try database.position(bookID: "a"))
        XCTAssertNotNil(try database.position(bookID: "b"))
        XCTAssertEqual(try database.connection.scalar("SELECT count(*) FROM positions", as: Int.self), 1)
    }

    // MARK: Transactions

    func testATransactionRollsBackWhenItsBodyThrows() throws {
        struct Cancelled: Error {}
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertBook(book("kept"))
        XCTAssertThrowsError(
            try database.connection.transaction {
                try database.upsertBook(book("lost"))
                try database.deleteBook(id: "kept")
                throw Cancelled()
            }
        ) { XCTAssertTrue($0 is Cancelled) }
        XCTAssertFalse(database.connection.isInTransaction)
        XCTAssertEqual(try database.books().map(\.id), ["kept"])
    }

    func testAnInnerTransactionRollsBackAloneInsideAnOuterOne() throws {
        struct Cancelled: Error {}
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.connection.transaction {
            try database.upsertBook(book("outer"))
            XCTAssertThrowsError(
                try database.connection.transaction {
                    try database.upsertBook(book("inner"))
                    throw Cancelled()
                })
            XCTAssertTrue(database.connection.isInTransaction, "the outer transaction goes on")
        }
        XCTAssertEqual(try database.books().map(\.id), ["outer"])
    }

    // MARK: The sqlite layer

    func testTypedValuesRoundTrip() throws {
        let connection = try SQLiteConnection(path: folder.appendingPathComponent("values.sqlite3").path)
        defer { connection.close() }
        try connection.execute("CREATE TABLE t (i, r, s, e, b, z, n)")
        let bytes = Data([0, 1, 2, 255])
        try connection.execute(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)",
            [Int64.max, 2.5, "Ærø — 書\u{0}tail", "", bytes, Data(), SQLiteValue.null])
        let row = try XCTUnwrap(try connection.query("SELECT * FROM t").first)
        XCTAssertEqual(try row.get("i", as: Int64.self), .max)
        XCTAssertEqual(try row.get("r", as: Double.self), 2.5)
        XCTAssertEqual(try row.get("s", as: String.self), "Ærø — 書\u{0}tail", "bound by length, NUL and all")
        XCTAssertEqual(row["e"], .text(""), "an empty string is not NULL")
        XCTAssertEqual(try row.get("b", as: Data.self), bytes)
        XCTAssertEqual(row["z"], .blob(Data()), "an empty blob is not NULL")
        XCTAssertEqual(row["n"], .null)
        XCTAssertNil(try row.get("n", as: String?.self))
        XCTAssertEqual(try row.get(1, as: Double?.self), 2.5)
        XCTAssertEqual(row.columnNames, ["i", "r", "s", "e", "b", "z", "n"])
        // The wrong type, NULL into a non-optional, an unknown column: errors, not zeros.
        assertDatabaseError(.other, _ = try row.get("s", as: Int64.self))
        assertDatabaseError(.other, _ = try row.get("n", as: String.self))
        assertDatabaseError(.other, _ = try row.get("nope", as: String.self))
    }

    func testMisuseIsAnErrorNotACrash() throws {
        let connection = try SQLiteConnection(path: folder.appendingPathComponent("misuse.sqlite3").path)
        try connection.execute("CREATE TABLE t (x)")
        assertDatabaseError(.other, try connection.execute("INSERT INTO t VALUES (?, ?)", [1]))
        assertDatabaseError(.other, try connection.execute("INSERT INTO t VALUES (1); DROP TABLE t"))
        assertDatabaseError(.other, try connection.execute("SELEKT 1"))
        XCTAssertEqual(
            try connection.scalar("SELECT count(*) FROM t", as: Int.self), 0, "the second statement never ran")
        let statement = try connection.prepare("INSERT INTO t VALUES (?)")
        try connection.transaction { for value in 0..<10 { try statement.run([value]) } }
        XCTAssertEqual(try connection.scalar("SELECT sum(x) FROM t", as: Int.self), 45)
        connection.close()
        assertDatabaseError(.other, try connection.execute("SELECT 1"))
        assertDatabaseError(.other, try statement.run([1]))
    }

    // MARK: Concurrency

    func testTwoConnectionsOnTwoThreadsWriteAtOnceWithoutLosingRows() throws {
        // Both open the database while it does not exist yet, so they also race through the first migration.
        let perThread = 150
        let group = DispatchGroup()
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var errors: [Error] = []
            func add(_ error: Error) { lock.lock(); errors.append(error); lock.unlock() }
        }
        let failures = Failures()
        let path = databasePath
        for writer in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let database = try LibraryDatabase(path: path)
                    defer { database.close() }
                    for index in 0..<perThread {
                        let id = "writer\(writer)-\(index)"
                        try database.upsertBook(BookRecord(id: id, mediaType: "text/plain", title: id))
                        try database.savePosition(ReadingPosition(bookID: id, locator: #"{"href":"x"}"#))
                    }
                } catch {
                    failures.add(error)
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertTrue(failures.errors.isEmpty, "\(failures.errors)")
        let database = try LibraryDatabase(path: path)
        defer { database.close() }
        XCTAssertEqual(try database.books().count, 2 * perThread)
        XCTAssertEqual(try database.connection.scalar("SELECT count(*) FROM positions", as: Int.self), 2 * perThread)
        XCTAssertEqual(try SchemaMigrator.version(of: database.connection), LibraryDatabase.schemaVersion)
    }

    func testOneConnectionSharedByManyThreadsKeepsEveryRow() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        let failures = NSLock()
        var errors: [Error] = []
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                for index in 0..<40 {
                    let id = "w\(worker)-\(index)"
                    // A transaction of two writes and a read must not interleave with another thread's.
                    try database.connection.transaction {
                        try database.upsertBook(BookRecord(id: id, mediaType: "text/plain", title: id))
                        try database.savePosition(ReadingPosition(bookID: id, locator: "{}"))
                        XCTAssertNotNil(try database.position(bookID: id))
                    }
                }
            } catch {
                failures.lock(); errors.append(error); failures.unlock()
            }
        }
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(try database.books().count, 160)
    }

    func testAWriterWaitsForAnotherConnectionsLockAndThenSucceeds() throws {
        let path = databasePath
        let holder = try LibraryDatabase(path: path)
        defer { holder.close() }
        let waiter = try LibraryDatabase(path: path, busyTimeout: 0.2)
        defer { waiter.close() }
        let locked = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.connection.transaction {
                try holder.upsertBook(self.book("holder"))
                locked.signal()
                // Longer than one busy timeout, shorter than the timeout plus its retries.
                usleep(300_000)
            }
            released.signal()
        }
        locked.wait()
        let started = Date()
        try waiter.upsertBook(book("waiter"))
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.15, "it really waited for the lock")
        XCTAssertEqual(released.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try waiter.books().map(\.id).sorted(), ["holder", "waiter"])
    }

    func testALockHeldTooLongIsABusyErrorNotAHang() throws {
        let path = databasePath
        let holder = try LibraryDatabase(path: path)
        defer { holder.close() }
        let waiter = try LibraryDatabase(path: path, busyTimeout: 0.05)
        defer { waiter.close() }
        try holder.connection.execute("BEGIN IMMEDIATE")
        // Opening an up-to-date library takes no write lock, so it does not wait for another shelf's write.
        let opener = try LibraryDatabase(path: path, busyTimeout: 0.05)
        XCTAssertEqual(try opener.books().count, 0)
        opener.close()
        assertDatabaseError(.busy, try waiter.upsertBook(book("late"))) { failure in
            XCTAssertTrue(failure.message.contains(path), failure.message)
            XCTAssertTrue(failure.message.contains("try again"), failure.message)
        }
        try holder.connection.execute("COMMIT")
        XCTAssertNoThrow(try waiter.upsertBook(book("late")), "once the lock is free the same write succeeds")
        // Readers are never blocked by a writer in WAL mode.
        try holder.connection.execute("BEGIN IMMEDIATE")
        XCTAssertEqual(try waiter.books().count, 1)
        try holder.connection.execute("ROLLBACK")
    }

    func testTwoProcessesWriteAtOnceWithoutLosingRows() throws {
        let path = databasePath
        try LibraryDatabase(path: path).close()
        let child = Process()
        child.executableURL = ShelfProcess.buildDirectory.appendingPathComponent("shelf-database-writer")
        child.arguments = [path, "child", String(Self.rowsPerProcess)]
        child.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        child.standardError = errors
        try child.run()
        let database = try LibraryDatabase(path: path)
        defer { database.close() }
        for index in 0..<Self.rowsPerProcess {
            try database.upsertBook(BookRecord(id: "parent-\(index)", mediaType: "text/plain", title: "p\(index)"))
        }
        let childOutput = errors.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0, String(decoding: childOutput, as: UTF8.self))
        let ids = try database.books().map(\.id)
        XCTAssertEqual(ids.filter { $0.hasPrefix("parent-") }.count, Self.rowsPerProcess)
        XCTAssertEqual(
            ids.filter { $0.hasPrefix("child-") }.count, Self.rowsPerProcess, "the child's rows are all there")
    }

    private static let rowsPerProcess = 150

    func testPermissionDeniedIsReportedAsSuch() throws {
        try XCTSkipIf(geteuid() == 0, "root may write anywhere, so permissions cannot be refused")
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(
            at: locked, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o500])
        defer { chmod(locked.path, 0o700) }
        assertDatabaseError(
            .permission, try LibraryDatabase(path: locked.appendingPathComponent("library.sqlite3").path).close())
    }

    // MARK: Statement cache

    func testCachedStatementsRunAgainWithFreshValuesAndLeaveWithTheConnection() throws {
        weak var released: SQLiteConnection?
        func useAndDrop() throws {
            let connection = try SQLiteConnection(path: databasePath)
            released = connection
            try connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
            // More distinct statements than the cache keeps: the oldest are finalized and compiled again when needed.
            for k in 0..<200 {
                try connection.execute("INSERT INTO t (k, v) VALUES (\(k), ?)", [k % 2 == 0 ? "even" : nil])
                try connection.execute("UPDATE t SET v = coalesce(v, ?) WHERE k = ?", ["odd", k])
            }
            XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t WHERE v = ?", ["odd"], as: Int.self), 100)
            XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t WHERE v = ?", ["even"], as: Int.self), 100)
            // A failed run leaves the statement reset and without values for the next one.
            XCTAssertThrowsError(try connection.execute("INSERT INTO t (k, v) VALUES (?, ?)", [1, "again"]))
            try connection.execute("INSERT INTO t (k, v) VALUES (?, ?)", [1000, "fresh"])
            XCTAssertEqual(try connection.scalar("SELECT v FROM t WHERE k = ?", [1000], as: String.self), "fresh")
        }
        // Cached statements hold no reference back: dropping the connection closes it.
        try useAndDrop()
        XCTAssertNil(released, "the statement cache keeps its connection alive")
        let reopened = try SQLiteConnection(path: databasePath)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.scalar("SELECT count(*) FROM t", as: Int.self), 201)
    }

    func testClosingFinalizesCachedStatementsAndLaterCallsFail() throws {
        let connection = try SQLiteConnection(path: databasePath)
        try connection.execute("CREATE TABLE t (v TEXT)")
        try connection.execute("INSERT INTO t VALUES (?)", ["x"])
        connection.close()
        XCTAssertThrowsError(try connection.execute("INSERT INTO t VALUES (?)", ["x"]))
        XCTAssertThrowsError(try connection.query("SELECT count(*) FROM t"))
    }

    // MARK: Catalog entries as stored

    private var richEntry: CatalogEntry {
        var link = CatalogLink(
            href: "https://lib.example/works/1/borrow", rel: Rel.borrow, type: "application/atom+xml",
            title: "Borrow \"this\"\n\tnow \\ \u{1}")
        link.facetGroup = "Formats"
        link.activeFacet = true
        link.facetGroupType = Rel.entryPointType
        link.availability = Availability(
            state: .unavailable, since: Date(timeIntervalSince1970: 1_700_000_000.125),
            until: Date(timeIntervalSinceReferenceDate: -12.5), copiesTotal: 5,
            copiesAvailable: 0, holdsTotal: 7, holdPosition: 3)
        link.indirect = [
            IndirectAcquisition(
                type: "application/vnd.adobe.adept+xml",
                children: [IndirectAcquisition(type: "application/epub+zip")])
        ]
        link.templated = false
        var entry = CatalogEntry(
            id: "urn:isbn:9780000000001", title: "Ünïcode — “quoted” 📚", authors: ["A, B", "C"],
            format: .audiobook, summary: "<p>sum</p>", publisher: "Press", language: "en",
            published: "2020-01-02", categories: ["Fiction", ""],
            links: [link, CatalogLink(href: "https://lib.example/works/1")],
            branches: [
                .init(
                    name: "Eastside", href: "https://lib.example/hold?b=e",
                    availability: Availability(state: .reserved, holdPosition: 2)),
                .init(name: "West", href: "https://lib.example/hold?b=w", availability: nil)
            ])
        entry.availability = Availability(state: .ready, until: Date(timeIntervalSince1970: 1_800_000_000))
        return entry
    }

    func testCatalogEntriesAreWrittenAndReadAsJSONEncoderAndJSONDecoderDo() throws {
        let entries = [richEntry, CatalogEntry(id: "plain", title: "")]
        for entry in entries {
            let written = CatalogEntryJSON.encode(entry)
            XCTAssertEqual(try JSONDecoder().decode(CatalogEntry.self, from: Data(written.utf8)), entry, written)
            XCTAssertEqual(
                try JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSDictionary,
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)) as? NSDictionary)
            XCTAssertEqual(try CatalogEntryJSON.decode(written), entry)
            // Rows written before, by JSONEncoder, read the same.
            XCTAssertEqual(
                try CatalogEntryJSON.decode(String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)), entry)
        }
        XCTAssertEqual(CatalogEntryJSON.encode(strings: ["a\"b", "ü"]), #"["a\"b","ü"]"#)
        // Text is scanned eight bytes at a time: every character that needs escaping, at every place in a word.
        for special in ["\"", "\\", "\n", "\u{0}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "😀"] {
            for place in 0..<20 {
                let text = String(repeating: "a", count: place) + special + String(repeating: "z", count: 19 - place)
                let written = CatalogEntryJSON.encode(strings: [text])
                XCTAssertEqual(try JSONDecoder().decode([String].self, from: Data(written.utf8)), [text], written)
            }
        }
        // What the fast reader does not take (a number with a fraction where an Int goes) is JSONDecoder's to refuse.
        XCTAssertThrowsError(
            try CatalogEntryJSON.decode(
                #"{"id":"x","title":"t","authors":[],"format":"ebook","categories":[],"links":[],"branches":[],"availability":{"state":"available","copiesTotal":1.5}}"#
            ))
    }

    /// The writer and reader name every stored property; one added to these types must be added there too.
    func testTheHandWrittenEntryFormKnowsEveryProperty() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let entry = richEntry
        XCTAssertEqual(
            labels(entry),
            [
                "id", "title", "authors", "format", "summary", "publisher", "language", "published",
                "categories", "links", "availability", "branches"
            ])
        XCTAssertEqual(
            labels(entry.links[0]),
            [
                "href", "rel", "type", "title", "facetGroup", "activeFacet", "facetGroupType",
                "availability", "indirect", "templated"
            ])
        XCTAssertEqual(
            labels(entry.availability),
            [
                "state", "since", "until", "copiesTotal", "copiesAvailable", "holdsTotal",
                "holdPosition"
            ])
        XCTAssertEqual(labels(entry.branches[0]), ["name", "href", "availability"])
        XCTAssertEqual(labels(IndirectAcquisition(type: "x")), ["type", "children"])
    }

    func testASyncStoresTheFeedsEntriesWithTheLoansAndKeepsDownloadedBooks() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertAccount(AccountRecord(id: "lib", title: "Library", catalogURL: "https://lib.example/"))
        var loaned = CatalogEntry(id: "b", title: "beta")
        loaned.availability = Availability(state: .loaned, until: Date(timeIntervalSince1970: 1_800_000_000.0004))
        let openAccess = CatalogEntry(id: "a", title: "Alpha", links: [CatalogLink(href: "x", rel: Rel.openAccess)])
        var asLoan = openAccess
        asLoan.availability.state = .loaned
        try database.replaceShelf(accountID: "lib", loans: [LoanRecord(accountID: "lib", entry: loaned)], holds: [])
        try database.setLoanBook(accountID: "lib", entryID: "b", bookID: "book-b")
        let hold = HoldRecord(accountID: "lib", entry: richEntry)
        let stored = try database.replaceShelf(
            accountID: "lib",
            loans: [LoanRecord(accountID: "lib", entry: loaned), LoanRecord(accountID: "lib", entry: asLoan)],
            holds: [hold],
            remembering: [.init(url: "https://lib.example/loans", entries: [loaned, openAccess, richEntry])],
            pagesAccountID: "lib")
        XCTAssertEqual(stored.loans.map(\.bookID), ["book-b", nil])
        // What a sync hands back without reading the rows again is what reading them gives.
        XCTAssertEqual(LibraryDatabase.inShelfOrder(stored.loans.map(\.asStored)), try database.loans(accountID: "lib"))
        XCTAssertEqual(LibraryDatabase.inShelfOrder(stored.holds.map(\.asStored)), try database.holds(accountID: "lib"))
        XCTAssertEqual(stored.holds.map(\.entry), [hold.entry])
        // The feed's entries as the feed said them (not as loans), found by `shelf book ID`.
        XCTAssertEqual(
            try database.findEntries(matching: "a", accountID: "lib").exact.first { $0.id == "a" }?.availability.state,
            .loaned, "a loan is found first")
        XCTAssertEqual(
            try database.connection.scalar(
                "SELECT json_extract(entry, '$.availability.state') FROM catalog_entries WHERE entry_id = 'a'",
                as: String.self), "open-access")
        XCTAssertEqual(
            try database.connection.scalar(
                "SELECT count(*) FROM catalog_entries WHERE account_id = 'lib'", as: Int.self), 3)
    }

    func testASyncThatFindsTheSameShelfLeavesItsRowsAlone() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertAccount(AccountRecord(id: "lib", title: "Library", catalogURL: "https://lib.example/"))
        func loan(_ id: String, until: TimeInterval) -> LoanRecord {
            var entry = CatalogEntry(id: id, title: "Title \(id)")
            entry.availability = Availability(state: .loaned, until: Date(timeIntervalSince1970: until))
            return LoanRecord(accountID: "lib", entry: entry, updatedAt: Date(timeIntervalSince1970: 1_000))
        }
        let hold = HoldRecord(accountID: "lib", entry: richEntry, updatedAt: Date(timeIntervalSince1970: 1_000))
        try database.replaceShelf(
            accountID: "lib", loans: [loan("a", until: 5_000), loan("b", until: 5_000)], holds: [hold])
        try database.setLoanBook(accountID: "lib", entryID: "a", bookID: "book-a")
        func rowids(_ table: String) throws -> [String: Int64] {
            Dictionary(
                uniqueKeysWithValues: try database.connection.query("SELECT entry_id, rowid FROM \(table)").map {
                    (try $0.get(0, as: String.self), try $0.get(1, as: Int64.self))
                })
        }
        let before = try rowids("loans"), holdsBefore = try rowids("holds")
        var later = hold
        later.updatedAt = Date(timeIntervalSince1970: 2_000)
        var renewedB = loan("b", until: 9_000)
        renewedB.updatedAt = Date(timeIntervalSince1970: 2_000)
        var againA = loan("a", until: 5_000)
        againA.updatedAt = Date(timeIntervalSince1970: 2_000)
        var newC = loan("c", until: 5_000)
        newC.updatedAt = Date(timeIntervalSince1970: 2_000)
        let stored = try database.replaceShelf(accountID: "lib", loans: [againA, renewedB, newC], holds: [later])
        let after = try rowids("loans")
        XCTAssertEqual(after["a"], before["a"], "unchanged: left alone")
        XCTAssertNotEqual(after["b"], before["b"], "renewed: written")
        XCTAssertNotNil(after["c"])
        XCTAssertEqual(try rowids("holds"), holdsBefore)
        // Handed back as stored: the untouched rows with the time they last changed, the downloaded book kept.
        XCTAssertEqual(stored.loans.map(\.updatedAt.timeIntervalSince1970), [1_000, 2_000, 2_000])
        XCTAssertEqual(stored.loans.map(\.bookID), ["book-a", nil, nil])
        XCTAssertEqual(stored.holds.map(\.updatedAt.timeIntervalSince1970), [1_000])
        XCTAssertEqual(LibraryDatabase.inShelfOrder(stored.loans.map(\.asStored)), try database.loans(accountID: "lib"))
        // Gone from the feed: gone here.
        try database.replaceShelf(accountID: "lib", loans: [againA], holds: [])
        XCTAssertEqual(try database.loans(accountID: "lib").map(\.entry.id), ["a"])
        XCTAssertEqual(try database.holds(accountID: "lib").count, 0)
    }

    func testShelfOrderIsTheDatabasesOrder() throws {
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertAccount(AccountRecord(id: "lib", title: "Library", catalogURL: "https://lib.example/"))
        func entry(
            _ id: String, _ title: String, _ state: Availability.State, until: TimeInterval?, position: Int? = nil
        ) -> CatalogEntry {
            var entry = CatalogEntry(id: id, title: title)
            entry.availability = Availability(
                state: state, until: until.map(Date.init(timeIntervalSince1970:)), holdPosition: position)
            return entry
        }
        let loans = [
            entry("1", "b", .loaned, until: nil), entry("2", "B", .loaned, until: 5),
            entry("3", "a", .loaned, until: 5),
            entry("4", "Ä", .loaned, until: 5), entry("5", "z", .loaned, until: 1),
            entry("6", "A", .loaned, until: nil),
            entry("7", "ab", .loaned, until: 5)
        ].map { LoanRecord(accountID: "lib", entry: $0) }
        let holds = [
            entry("h1", "x", .reserved, until: nil, position: 2), entry("h2", "y", .ready, until: 9),
            entry("h3", "a", .reserved, until: nil), entry("h4", "b", .reserved, until: nil, position: 1),
            entry("h5", "B", .ready, until: nil)
        ].map { HoldRecord(accountID: "lib", entry: $0) }
        try database.replaceShelf(accountID: "lib", loans: loans, holds: holds)
        XCTAssertEqual(
            LibraryDatabase.inShelfOrder(loans).map(\.entry.id), try database.loans(accountID: "lib").map(\.entry.id))
        XCTAssertEqual(
            LibraryDatabase.inShelfOrder(holds).map(\.entry.id), try database.holds(accountID: "lib").map(\.entry.id))
    }

    func testTheEntryCheckMigrationKeepsEveryRow() throws {
        // A database as the previous version left it, with a loan of a downloaded book, a hold, an entry seen while
        // browsing and a reading position.
        let before = try SQLiteConnection(path: databasePath)
        try SchemaMigrator.migrate(before, steps: Array(LibrarySchema.migrations.dropLast()))
        let entry = String(decoding: try JSONEncoder().encode(richEntry), as: UTF8.self)
        try before.executeScript(
            """
            INSERT INTO accounts (id, title, catalog_url, added_at) VALUES ('lib', 'Library', 'https://lib.example/', 1);
            INSERT INTO books (id, media_type, title, added_at) VALUES ('book-1', 'application/epub+zip', 'One', 1);
            INSERT INTO positions (book_id, locator, updated_at) VALUES ('book-1', '{"href":"c1.xhtml"}', 2);
            """)
        try before.execute(
            "INSERT INTO catalog_entries (rowid, entry_id, title, entry, seen_at) VALUES (7, 'e', 't', ?, 3)", [entry])
        try before.execute(
            """
            INSERT INTO loans (account_id, entry_id, title, authors, format, ends_at, entry, book_id, updated_at)
            VALUES ('lib', 'l', 'Loan', '["A"]', 'ebook', 5, ?, 'book-1', 4)
            """, [entry])
        try before.execute(
            """
            INSERT INTO holds (account_id, entry_id, title, format, state, position, entry, updated_at)
            VALUES ('lib', 'h', 'Hold', 'audiobook', 'reserved', 2, ?, 4)
            """, [entry])
        before.close()

        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        XCTAssertEqual(try SchemaMigrator.version(of: database.connection), LibraryDatabase.schemaVersion)
        let loans = try database.loans(), holds = try database.holds()
        XCTAssertEqual(loans.map(\.entry), [richEntry])
        XCTAssertEqual(loans.map(\.bookID), ["book-1"])
        XCTAssertEqual(loans.map(\.endsAt), [Date(databaseMilliseconds: 5)])
        XCTAssertEqual(holds.map(\.entry), [richEntry])
        XCTAssertEqual(holds.map(\.position), [2])
        XCTAssertEqual(
            try database.connection.scalar("SELECT rowid FROM catalog_entries WHERE entry_id = 'e'", as: Int.self), 7)
        XCTAssertEqual(try database.position(bookID: "book-1")?.locator, #"{"href":"c1.xhtml"}"#)
        XCTAssertEqual(try database.connection.scalar("PRAGMA integrity_check", as: String.self), "ok")
        XCTAssertTrue(try database.connection.query("PRAGMA foreign_key_check").isEmpty)
        let schema = try database.connection.query(
            "SELECT sql FROM sqlite_schema WHERE name IN ('catalog_entries', 'loans', 'holds')"
        )
        .map { try $0.get(0, as: String.self) }
        XCTAssertEqual(schema.count, 3)
        XCTAssertFalse(schema.contains { $0.contains("json_valid(entry)") }, "\(schema)")
        XCTAssertTrue(try database.connection.query("SELECT name FROM sqlite_schema WHERE name LIKE '%_new'").isEmpty)
        XCTAssertNotNil(
            try database.connection.scalar(
                "SELECT name FROM sqlite_schema WHERE name = 'catalog_entries_seen'", as: String.self))
        // Accounts still own their loans and holds.
        XCTAssertTrue(try database.deleteAccount(id: "lib"))
        XCTAssertEqual(try database.loans().count + database.holds().count, 0)
    }

    /// Issue 33: the holds table keyed by title and branch keeps every row it had (a branch hold, an e-book hold with
    /// no branch), and then takes an e-book hold and a branch hold of the same title side by side.
    func testTheHoldsPerBranchMigrationKeepsEveryRowAndBothHoldsOfATitle() throws {
        let before = try SQLiteConnection(path: databasePath)
        try SchemaMigrator.migrate(
            before, steps: Array(LibrarySchema.migrations.prefix { $0.summary != CatalogSchema.holdsPerBranch.summary })
        )
        let entry = String(decoding: try JSONEncoder().encode(richEntry), as: UTF8.self)
        try before.executeScript(
            "INSERT INTO accounts (id, title, catalog_url, added_at) VALUES ('lib', 'Library', 'https://lib.example/', 1);"
        )
        try before.execute(
            """
            INSERT INTO holds (account_id, entry_id, title, format, state, position, branch, entry, updated_at)
            VALUES ('lib', 'a', 'A', 'ebook', 'reserved', 2, NULL, ?, 4), ('lib', 'b', 'B', 'ebook', 'reserved', NULL, 'Central', ?, 5)
            """, [entry, entry])
        before.close()

        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        XCTAssertEqual(try SchemaMigrator.version(of: database.connection), LibraryDatabase.schemaVersion)
        var holds = try database.holds()
        XCTAssertEqual(holds.count, 2)
        XCTAssertEqual(holds.first { $0.position == 2 }?.branch, nil)
        XCTAssertEqual(holds.first { $0.position == nil }?.branch, "Central")
        // An e-book hold and a branch hold of one title, each written as a reserve writes it: both stay.
        let title = CatalogEntry(id: "urn:x", title: "X")
        try database.upsertHold(HoldRecord(accountID: "lib", entry: title))
        try database.upsertHold(HoldRecord(accountID: "lib", entry: title, branch: "Eastside"))
        holds = try database.holds().filter { $0.entry.id == title.id }
        XCTAssertEqual(Set(holds.map { $0.branch ?? "" }), ["", "Eastside"])
        // A sync's answer with the e-book hold only, and the branch hold kept as the sync keeps it: both stay.
        try database.replaceShelf(accountID: "lib", loans: [], holds: holds)
        XCTAssertEqual(try database.holds().filter { $0.entry.id == title.id }.count, 2)
        XCTAssertTrue(try database.deleteHold(accountID: "lib", entryID: title.id))
        XCTAssertEqual(try database.holds().filter { $0.entry.id == title.id }.map(\.branch), ["Eastside"])
        XCTAssertEqual(try database.connection.scalar("PRAGMA integrity_check", as: String.self), "ok")
    }

    // MARK: Places saved at once (a group commit)

    private func place(_ n: Int) -> Locator {
        Locator(
            href: "OEBPS/chapter-\(n).xhtml", type: "application/xhtml+xml",
            locations: .init(progression: Double(n % 100) / 100))
    }

    private func savedPage(_ database: LibraryDatabase, _ id: String) throws -> Int? {
        try database.connection.scalar("SELECT page FROM reading_progress WHERE book_id = ?", [id], as: Int.self)
    }

    func testPlacesSavedFromManyThreadsAllLandAndTheLastOfEachBookWins() throws {
        // Issue 31: the browser's page turns, many at once, are committed together. Each thread saves its own book
        // page after page; each save is there when it returns, and each book keeps its last.
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        let books = (0..<6).map { "book\($0)" }
        for id in books { try database.upsertBook(book(id)) }
        let saves = 25
        let problems = Problems()
        DispatchQueue.concurrentPerform(iterations: books.count) { b in
            do {
                for n in 1...saves {
                    try database.saveReadingPlace(bookID: books[b], locator: place(n), page: n, pages: saves)
                    // Read back on the same connection: the save is committed when the call returns.
                    if try database.readingLocator(bookID: books[b]) != place(n) {
                        problems.add("\(books[b]): save \(n) not there when it returned")
                    }
                }
            } catch {
                problems.add("\(books[b]): \(error)")
            }
        }
        XCTAssertEqual(problems.all, [])
        let reopened = try LibraryDatabase(path: databasePath)
        defer { reopened.close() }
        for id in books {
            XCTAssertEqual(try reopened.readingLocator(bookID: id), place(saves), id)
            XCTAssertEqual(try savedPage(reopened, id), saves, id)
        }
    }

    func testSavesArrivingDuringACommitShareTheNextTransactionAndTheNewestOfABookWins() throws {
        // A write holds the transaction open; twelve saves of three books (and one of a book not in the library)
        // queue meanwhile, in a known order. Released, they take one more transaction, not thirteen: the newest of
        // each book is kept with its own page, and only the save of the missing book fails. Failed before: each
        // save was a transaction of its own, waiting for the previous one's sync.
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        let books = ["a", "b", "c"]
        for id in books { try database.upsertBook(book(id)) }
        let inFlight = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let problems = Problems()
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do {
                try database.places.write(key: "held") {
                    inFlight.signal()
                    release.wait()
                }
            } catch {
                problems.add("held: \(error)")
            }
        }
        inFlight.wait()
        let before = database.places.transactions
        var queued: [(id: String, n: Int)] = (1...12).map { (books[$0 % 3], $0) }
        queued.insert(("missing", 13), at: 5)
        for (index, save) in queued.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    try database.saveReadingPlace(bookID: save.id, locator: self.place(save.n), page: save.n, pages: 13)
                    if save.id == "missing" { problems.add("missing: saved") }
                } catch {
                    // The book not in the library is refused (its place would name no book), and only it.
                    if save.id != "missing" || (error as? DatabaseError)?.kind != .constraint {
                        problems.add("\(save.id) \(save.n): \(error)")
                    }
                }
            }
            // The next save is started once this one waits: the order of the queue is the order of the list.
            let deadline = Date().addingTimeInterval(30)
            while database.places.waiting < index + 1, Date() < deadline { usleep(1000) }
            XCTAssertEqual(database.places.waiting, index + 1)
        }
        release.signal()
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(problems.all, [])
        // The held write's transaction, then one for all thirteen.
        XCTAssertEqual(database.places.transactions, before + 2)
        for id in books {
            let newest = try XCTUnwrap(queued.last { $0.id == id }).n
            XCTAssertEqual(try database.readingLocator(bookID: id), place(newest), id)
            XCTAssertEqual(try savedPage(database, id), newest, id)
        }
        XCTAssertNil(try database.readingLocator(bookID: "missing"))
    }

    func testAPlaceSavedInsideATransactionIsPartOfIt() throws {
        // A save inside a transaction of its own thread joins it (waiting for the group would wait for itself) and
        // goes with it when it rolls back.
        let database = try LibraryDatabase(path: databasePath)
        defer { database.close() }
        try database.upsertBook(book("a"))
        struct Undo: Error {}
        XCTAssertThrowsError(
            try database.connection.transaction {
                try database.saveReadingPlace(bookID: "a", locator: place(1), page: 1, pages: 3)
                XCTAssertEqual(try database.readingLocator(bookID: "a"), place(1))
                throw Undo()
            })
        XCTAssertNil(try database.readingLocator(bookID: "a"))
        try database.connection.transaction {
            try database.saveReadingPlace(bookID: "a", locator: place(2), page: 2, pages: 3)
        }
        XCTAssertEqual(try database.readingLocator(bookID: "a"), place(2))
    }

    /// What went wrong on other threads, gathered.
    /// Unchecked Sendable: `list` is read and written under `lock`.
    final class Problems: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ problem: String) { lock.withLock { list.append(problem) } }
        var all: [String] { lock.withLock { list } }
    }
}
