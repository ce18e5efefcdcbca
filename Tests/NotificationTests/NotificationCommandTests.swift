import Foundation
import Host
import ShelfLibrary
import TestSupport
import XCTest

/// The built `shelf` against the fake Palace library on loopback: holds coming in, loans running down on the
/// server's clock, the watcher, the terminal line, the status badge.
class NotificationTestCase: LibraryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // Never the patron's own desktop: only a test's private bus, when a test sets one.
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    }

    /// Signed in, and the catalog browsed once, so that the library's holds and loans are known.
    override func addAndLogin() throws {
        try super.addAndLogin()
        try run(["browse"])
    }

    /// The notifications as `shelf notifications --json` lists them (`all`: past ones too).
    func notifications(all: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]]
    {
        let result = try run(["notifications", "--json"] + (all ? ["--all"] : []), file: file, line: line)
        return try XCTUnwrap(try result.json() as? [[String: Any]], result.stdout)
    }

    func texts(all: Bool = false) throws -> [String] {
        try notifications(all: all).compactMap { $0["text"] as? String }
    }

    func status() throws -> [String: Any] { try XCTUnwrap(try run(["status", "--json"]).json() as? [String: Any]) }

    var database: LibraryDatabase {
        get throws { try LibraryDatabase(path: shelf.home.appendingPathComponent("data/library.sqlite3").path) }
    }

    static let day: TimeInterval = 86_400
}

final class NotificationCommandTests: NotificationTestCase {
    let waiting = "urn:fake:ebook-out"
    let readyText = "Waiting Game is ready to be checked out. You have 3 days to complete checkout of this item."

    func testHoldBecomesReadyOnTheServerThenSyncSaysSoWithTheDays() throws {
        // A time zone far from UTC: the count must not move.
        shelf.environment["TZ"] = "Pacific/Chatham"
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        try run(["sync"])
        XCTAssertEqual(try texts(), [])
        XCTAssertEqual(try status()["readyToBorrow"] as? Int, 0)
        XCTAssertFalse(try run(["holds"]).stdout.contains("Ready to borrow:"))

        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        let synced = try run(["sync"])
        XCTAssertTrue(synced.stdout.contains("1 ready to borrow"), synced.stdout)
        let list = try notifications()
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["text"] as? String, readyText)
        XCTAssertEqual(list.first?["route"] as? String, "reservations")
        XCTAssertEqual(list.first?["bookRoute"] as? String, "book:\(waiting)")
        XCTAssertEqual(list.first?["kind"] as? String, "hold-ready")
        XCTAssertEqual(list.first?["state"] as? String, "unread")
        // Not again on the next sync.
        try run(["sync"])
        XCTAssertEqual(try texts(), [readyText])

        // The badge, in words, on holds and status.
        let holds = try run(["holds"])
        XCTAssertTrue(holds.stdout.contains("Ready to borrow: 1 hold"), holds.stdout)
        let summary = try status()
        XCTAssertEqual(summary["readyToBorrow"] as? Int, 1)
        XCTAssertEqual(summary["unreadNotifications"] as? Int, 1)
        let statusText = try run(["status"]).stdout
        XCTAssertTrue(statusText.contains("Ready to borrow: 1 hold"), statusText)
        XCTAssertTrue(statusText.contains(readyText), statusText)
        XCTAssertTrue(statusText.contains("fake: Fake Public Library"), statusText)

        // Opening it goes to Reservations and marks it read.
        let id = try XCTUnwrap(list.first?["id"] as? Int)
        let opened = try run(["open-notification", "\(id)"])
        XCTAssertTrue(opened.stdout.contains(readyText), opened.stdout)
        XCTAssertTrue(opened.stdout.contains("Opening Reservations (reservations)"), opened.stdout)
        XCTAssertTrue(opened.stdout.contains("Borrow it now: shelf borrow \(waiting)"), opened.stdout)
        XCTAssertEqual(try status()["unreadNotifications"] as? Int, 0)
        let openedJSON = try XCTUnwrap(
            try run(["open-notification", "\(id)", "--book", "--json"]).json() as? [String: Any])
        XCTAssertEqual(openedJSON["route"] as? String, "book:\(waiting)")
        let book = try run(["open-notification", "\(id)", "--book"])
        XCTAssertTrue(book.stdout.contains("Waiting Game"), book.stdout)
        try run(["open-notification", "999"], expect: 66)

        // Borrowed: the badge clears, the notification is withdrawn.
        try run(["borrow", "urn:fake:ebook-out"])
        XCTAssertFalse(try run(["holds"]).stdout.contains("Ready to borrow:"))
        XCTAssertEqual(try status()["readyToBorrow"] as? Int, 0)
        try run(["sync"])
        XCTAssertEqual(try texts(), [])
        let past = try notifications(all: true)
        XCTAssertEqual(past.first?["state"] as? String, "withdrawn")
        XCTAssertEqual(past.first?["text"] as? String, readyText)
    }

    /// Issue 32, item 5, on the library's wire: a loan first seen with three days left gets no "one week left" (it
    /// would be false), and the day notice when a day is left.
    func testALoanBorrowedWithThreeDaysLeftGetsOnlyTheDayNotice() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        library.setLoanEnd(road, Date().addingTimeInterval(3 * Self.day))
        try run(["borrow", road])
        try run(["sync"])
        XCTAssertEqual(try texts(), [])
        library.advanceClock(by: 2 * Self.day + 3600)
        try run(["sync"])
        XCTAssertEqual(try texts(), ["The Open Road has one day left before it must be returned."])
        XCTAssertFalse(try notifications(all: true).contains { $0["kind"] as? String == "loan-week" })
    }

    func testLoanRunsDownOnTheServersClockWeekDayReturned() throws {
        shelf.environment["TZ"] = "America/St_Johns"
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", "urn:fake:ebook-free"])
        // The server's clock runs a month ahead of this machine's: the library's time is what counts.
        library.clockOffset = 30 * Self.day
        let end = library.now.addingTimeInterval(7 * Self.day)
        library.setLoanEnd(road, end)
        try run(["sync"])
        XCTAssertEqual(try texts(), ["The Open Road has one week left before it will be returned."])
        XCTAssertEqual(try notifications().first?["route"] as? String, "loans")
        try run(["sync"])
        XCTAssertEqual(try texts().count, 1)

        library.advanceClock(by: 5 * Self.day)
        try run(["sync"])
        XCTAssertEqual(try texts().count, 1, "five days left: nothing new")
        library.advanceClock(by: Self.day)
        try run(["sync"])
        // "One week left" is superseded by its successor: no longer live beside it.
        XCTAssertEqual(try texts(), ["The Open Road has one day left before it must be returned."])
        XCTAssertEqual(
            try notifications(all: true).compactMap { $0["state"] as? String }.sorted(), ["superseded", "unread"])

        // The period ends on the server's clock: the loan leaves the feed.
        library.advanceClock(by: Self.day + 60)
        try run(["sync"])
        XCTAssertFalse(library.onLoan(road))
        XCTAssertEqual(try texts(), ["The Open Road has been returned."])
        try run(["sync"])
        XCTAssertEqual(try texts(), ["The Open Road has been returned."])
        let opened = try run(["open-notification", "\(try XCTUnwrap(try notifications().first?["id"] as? Int))"])
        XCTAssertTrue(opened.stdout.contains("Opening My Books (loans)"), opened.stdout)
    }

    func testThePatronsOwnReturnIsNeverReportedAsReturned() throws {
        try addAndLogin()
        let rivers = "urn:fake:audio-free"
        try run(["borrow", "urn:fake:audio-free"])
        library.setLoanEnd(rivers, Date().addingTimeInterval(Self.day - 60))
        try run(["sync"])
        XCTAssertEqual(try texts(), ["Sound of Rivers has one day left before it must be returned."])
        try run(["return", "urn:fake:audio-free"])
        XCTAssertEqual(try texts(), [], "returned: one day left no longer holds")
        // Later the end passes; nothing says it "has been returned".
        library.advanceClock(by: 2 * Self.day)
        try run(["sync"])
        XCTAssertFalse(try texts(all: true).contains { $0.contains("has been returned") })
    }

    func testReadyHoldWithLessThanADayGetsOnlyTheOneDayLeftText() throws {
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(20 * 3600))
        try run(["sync"])
        XCTAssertEqual(
            try texts(),
            ["Waiting Game is ready to be checked out. You have 1 day left to complete checkout of this item."])
    }

    // MARK: The terminal line

    func testALineOnStderrOnceOnTheNextCommandAtATerminalNeverWithJSON() throws {
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        // Off a terminal, the sync tells its log (item 8); that is no one at a terminal seeing it.
        let piped = try run(["sync"])
        XCTAssertEqual(piped.stderr, "Notification: \(readyText) (shelf open-notification 1)\n")
        let json = try TerminalProcess.run(["holds", "--json"], environment: shelf.environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertFalse(json.stderr.contains("Notification:"), json.stderr)
        let first = try TerminalProcess.run(["loans"], environment: shelf.environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(
            first.stderr.components(separatedBy: "Notification: \(readyText) (shelf open-notification 1)").count - 1, 1,
            first.stderr)
        XCTAssertFalse(first.stdout.contains("Notification:"), "stderr only")
        XCTAssertFalse(first.stderr.contains("\u{1B}["), "no colour codes carry meaning")
        let second = try TerminalProcess.run(["loans"], environment: shelf.environment)
        XCTAssertFalse(second.stderr.contains("Notification:"), "once each: \(second.stderr)")
        // Still listed until opened.
        XCTAssertEqual(try texts(), [readyText])
    }

    // MARK: The watcher

    func testWatchSyncsEveryAccountQuietlyWhenNothingChanged() throws {
        try addAndLogin()
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(Self.day))
        let first = try run(["watch", "--once"])
        XCTAssertEqual(
            first.stdout, "The Open Road has one day left before it must be returned. (shelf open-notification 1)\n")
        XCTAssertEqual(first.stderr, "")
        let second = try run(["watch", "--once"])
        XCTAssertEqual(second.stdout, "", "quiet when nothing changed")
        XCTAssertEqual(second.stderr, "")
        let cycles = try run(["watch", "--cycles", "2", "--interval", "200ms"])
        XCTAssertEqual(cycles.stdout + cycles.stderr, "")
        XCTAssertEqual(library.server.requests(to: "/loans").count, 4, "watch, watch, and two cycles")
        let json = try XCTUnwrap(try run(["watch", "--once", "--json"]).json() as? [String: Any])
        XCTAssertEqual((json["accounts"] as? [[String: Any]])?.first?["result"] as? String, "synced")
        try run(["watch", "--interval", "15"], expect: 64)
        try run(["watch", "--once", "--cycles", "2"], expect: 64)
    }

    /// A server that fails or answers garbage while the watcher runs: no notification, nothing lost; the end of
    /// the loan is told truly once the server answers again.
    func testFailingOrGarbageServerDuringWatchProducesNothingAndLosesNothing() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd(road, Date().addingTimeInterval(10 * Self.day))
        try run(["watch", "--once"])
        XCTAssertEqual(try texts(), [])

        // The loan ends on the server's clock while the server misbehaves.
        library.advanceClock(by: 10 * Self.day + 60)
        let faults: [(String, LoopbackHTTPServer.Response)] = [
            ("500", .text("Internal Server Error", status: 500)),
            ("HTML", .text("<html><body>Down for maintenance</body></html>", contentType: "text/html")),
            ("JSON", .text(#"{"not": "a feed"}"#, contentType: "application/json")),
            (
                "truncated Atom",
                .text(
                    #"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:fake:ebook-free</id><title>The Op"#,
                    contentType: "application/atom+xml;profile=opds-catalog;kind=acquisition")
            ),
            (
                "binary",
                .data(Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }), contentType: "application/atom+xml")
            )
        ]
        for (name, fault) in faults {
            library.loansFault = fault
            // The backoff from the previous failure is not what this test is about.
            try database.setMeta("watch.backoff.fake", nil)
            let result = try run(["watch", "--once"], expect: 75)
            XCTAssertEqual(result.stdout, "", "\(name): no notification printed")
            XCTAssertTrue(
                result.stderr.contains("sync of fake failed") && result.stderr.contains("nothing stored changed"),
                "\(name): \(result.stderr)")
            XCTAssertEqual(try texts(all: true), [], "\(name): no notification stored")
            let loans = try XCTUnwrap(try run(["loans", "--json"]).json() as? [[String: Any]])
            XCTAssertEqual(loans.count, 1, "\(name): the loan is still stored")
        }
        // Backing off: the next run soon after a failure does not even ask.
        let asked = library.server.requests(to: "/loans").count
        try run(["watch", "--once"])
        XCTAssertEqual(library.server.requests(to: "/loans").count, asked, "waits before trying again")
        let waiting = try XCTUnwrap(try run(["watch", "--once", "--json"]).json() as? [String: Any])
        XCTAssertEqual((waiting["accounts"] as? [[String: Any]])?.first?["result"] as? String, "waiting")
        XCTAssertNotNil(try status()["accounts"].flatMap { ($0 as? [[String: Any]])?.first?["syncError"] as? String })

        // The server answers again: now, and only now, the loan is returned.
        library.loansFault = nil
        try database.setMeta("watch.backoff.fake", nil)
        let recovered = try run(["watch", "--once"])
        XCTAssertEqual(recovered.stdout, "The Open Road has been returned. (shelf open-notification 1)\n")
        XCTAssertEqual(try texts(), ["The Open Road has been returned."])
    }

    func testBackoffRepeatedFailuresAskLessOftenAndSayItOnce() throws {
        try addAndLogin()
        library.loansFault = .text("Service Unavailable", status: 503)
        let before = library.server.requests(to: "/loans").count
        // 1 s interval: the failure at 0 s waits 2 s, so of cycles at 0, 1, 2, 3 s only 0 and 2 ask.
        let result = try run(["watch", "--cycles", "4", "--interval", "1s"])
        XCTAssertEqual(library.server.requests(to: "/loans").count - before, 2, result.stderr)
        XCTAssertEqual(
            result.stderr.components(separatedBy: "sync of fake failed").count - 1, 1, "said once: \(result.stderr)")
        XCTAssertEqual(result.stdout, "")
    }

    func testWatchNeverOverlapsItself() throws {
        try addAndLogin()
        let lockPath = shelf.home.appendingPathComponent("data/watch.lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        let refused = try run(["watch", "--once"], expect: 75)
        XCTAssertTrue(refused.stderr.contains("another shelf watch is already running"), refused.stderr)
        XCTAssertEqual(library.server.requests(to: "/loans").count, 0)
        flock(descriptor, LOCK_UN)
        try run(["watch", "--once"])
    }

    /// Issue 18, item 8: cron or a systemd timer runs `shelf sync` with no terminal; what it notices is said on
    /// stderr, one line each (its log), and listed in --json, once: the next sync has nothing new to tell.
    func testSyncWithoutATerminalSaysEachNewNotificationOnStderrAndInJSON() throws {
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        try run(["sync"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        let synced = try run(["sync"])
        let lines = synced.stderr.split(separator: "\n").filter { $0.hasPrefix("Notification: ") }
        XCTAssertEqual(lines.count, 1, synced.stderr)
        XCTAssertTrue(lines.first?.contains(readyText) == true, synced.stderr)
        XCTAssertFalse(synced.stdout.contains("Notification: "), synced.stdout)

        // The same for a script reading --json: the document lists it, and stderr still tells the log.
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(6 * Self.day + 12 * 3600))
        try run(["borrow", "urn:fake:ebook-free"])
        let document = try run(["sync", "--json"])
        let made = try XCTUnwrap(try json(document)["notifications"] as? [[String: Any]], document.stdout)
        XCTAssertEqual(made.map { $0["kind"] as? String }, ["loan-week"], document.stdout)
        XCTAssertEqual(
            document.stderr.split(separator: "\n").filter { $0.hasPrefix("Notification: ") }.count, 1, document.stderr)

        let again = try run(["sync", "--json"])
        XCTAssertEqual((try json(again)["notifications"] as? [Any])?.count, 0, again.stdout)
        XCTAssertFalse(again.stderr.contains("Notification: "), again.stderr)
    }

    func testInstallWritesASystemdUserServiceAndTimer() throws {
        let result = try run(["watch", "--install", "--interval", "30m"])
        // Where systemd looks for the user's units (HOME is the test's), named after this SHELF_HOME so that the
        // patron's own shelf-watch units are never overwritten.
        let folder = shelf.home.appendingPathComponent(".config/systemd/user")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names.count, 2, "\(names)")
        let name = try XCTUnwrap(names.first { $0.hasSuffix(".service") }).replacingOccurrences(
            of: ".service", with: "")
        XCTAssertTrue(name.hasPrefix("shelf-watch-" + shelf.home.lastPathComponent.prefix(40) + "-"), name)
        XCTAssertEqual(names, [name + ".service", name + ".timer"])
        let service = try String(contentsOf: folder.appendingPathComponent(name + ".service"), encoding: .utf8)
        let timer = try String(contentsOf: folder.appendingPathComponent(name + ".timer"), encoding: .utf8)
        XCTAssertTrue(
            service.contains(
                "ExecStart=\"\(ShelfProcess.executable.resolvingSymlinksInPath().path)\" watch --once --interval 1800s"),
            service)
        XCTAssertTrue(service.contains("Type=oneshot"), service)
        XCTAssertTrue(service.contains("Environment=\"SHELF_HOME=\(shelf.home.path)\""), service)
        XCTAssertTrue(timer.contains("OnUnitActiveSec=1800s"), timer)
        XCTAssertTrue(timer.contains("WantedBy=timers.target"), timer)
        XCTAssertTrue(result.stdout.contains("systemctl --user enable --now \(name).timer"), result.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shelf.home.appendingPathComponent("config/systemd").path))

        // systemd itself accepts both units.
        guard
            let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("systemd-analyze is not installed (Debian package systemd): the units were not verified")
        }
        let verify = Process()
        verify.executableURL = URL(fileURLWithPath: analyze)
        verify.arguments = [
            "verify", "--man=no", "--user", folder.appendingPathComponent(name + ".service").path,
            folder.appendingPathComponent(name + ".timer").path
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = shelf.home.path
        environment["XDG_CONFIG_HOME"] = nil
        // A user manager of systemd-analyze's own needs a runtime folder; this test's, not the session's.
        let runtime = shelf.home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime.path
        verify.environment = environment
        let errors = Pipe()
        verify.standardError = errors
        verify.standardOutput = errors
        try verify.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        verify.waitUntilExit()
        XCTAssertEqual(verify.terminationStatus, 0, said)
        XCTAssertFalse(said.contains(name), "systemd-analyze found fault with the units: \(said)")
    }
}
