import Foundation
import Host
import TestSupport
import XCTest

/// The session API a front end calls: the event stream, the sync pipeline's sinks, and the listening session's
/// saved position, in-process as the browser app uses them.
final class SessionTests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    func makeShelf() -> Shelf {
        Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path],
            environment: [
                "SHELF_HOME": home.path, "HOME": home.path, "SHELF_HTTP_RETRIES": "1", "SHELF_HTTP_TIMEOUT": "10"
            ])
    }

    // MARK: Events

    /// Every subscriber gets every event published while it is subscribed, from many threads at once; none after
    /// it unsubscribed.
    func testEventsReachSubscribersFromManyThreads() {
        let events = ShelfEvents()
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
            func add() { lock.withLock { value += 1 } }
        }
        let first = Count(), second = Count()
        let token = events.subscribe { _ in first.add() }
        events.subscribe { _ in second.add() }
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            events.publish(.synced(accountID: "a\(i)", loans: i, holds: 0))
        }
        events.unsubscribe(token)
        events.publish(.synced(accountID: "after", loans: 0, holds: 0))
        XCTAssertEqual(first.value, 400)
        XCTAssertEqual(second.value, 401)
    }

    // MARK: Sync

    /// A sync hands the notifications it made to the event stream, and says the account was synced.
    func testSyncPublishesItsNotificationsOnTheEventStream() throws {
        let fake = try FakeLibrary()
        defer { fake.stop() }
        let shelf = makeShelf()
        let (library, circulation) = try shelf.signedInCirculation(at: fake)
        _ = try circulation.reserve(try circulation.entry("urn:fake:ebook-out"))
        fake.makeHoldReady("urn:fake:ebook-out")

        final class Seen: @unchecked Sendable { let lock = NSLock(); var events: [ShelfEvent] = [] }
        let seen = Seen()
        shelf.events.subscribe { event in seen.lock.withLock { seen.events.append(event) } }
        let outcome = try library.syncPipeline(sinks: [EventStreamSink(events: shelf.events)]).run(account: "fake")

        XCTAssertEqual(outcome.holds.filter(\.isReady).count, 1)
        XCTAssertFalse(outcome.notifications.isEmpty, "a hold became ready")
        let notified = seen.events.compactMap { event -> NotificationRecord? in
            if case .notification(let record) = event { return record }
            return nil
        }
        XCTAssertEqual(notified.map(\.id), outcome.notifications.map(\.id))
        XCTAssertTrue(notified.contains { $0.entryID == "urn:fake:ebook-out" })
        XCTAssertTrue(seen.events.contains { if case .synced("fake", _, 1) = $0 { return true } else { return false } })
        // A second sync makes nothing new, so it hands nothing over again.
        XCTAssertTrue(try library.syncPipeline(sinks: []).run(account: "fake").notifications.isEmpty)
    }

    // MARK: Listening

    var audiobook: String {
        ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio/harbour-bells.json").path
    }

    /// A position reported by a player outside the host (a browser's) is where the next session resumes.
    func testReportedPositionIsWhereTheNextSessionResumes() throws {
        let shelf = makeShelf()
        let first = try shelf.listen(audiobook)
        XCTAssertEqual(try first.start(from: .saved), "from the start")
        try first.reportPosition(seconds: 1.5, playing: true)
        let second = try shelf.listen(audiobook)
        XCTAssertEqual(try second.start(from: .saved), "resuming at 0:02", "1.5 s, to the nearest second")
    }

    /// A database that cannot be opened is an error before anything plays: the position would be lost (it used to
    /// be, silently).
    func testListeningWithoutADatabaseIsAnError() throws {
        let shelf = makeShelf()
        let databaseFile = try XCTUnwrap(shelf.directories).databaseFile
        // A folder where the database file should be: sqlite cannot open it.
        try FileManager.default.createDirectory(at: databaseFile, withIntermediateDirectories: true)
        XCTAssertThrowsError(try shelf.listen(audiobook)) { error in
            XCTAssertEqual((error as? ShelfError)?.kind, .ioError, "\(error)")
            XCTAssertTrue("\(error)".contains("listening position cannot be saved"), "\(error)")
        }
    }
}
