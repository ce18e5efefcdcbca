import Foundation
import Host
import TestSupport
import XCTest

/// shelf speaking D-Bus for real: a private session bus started by the test (Debian's dbus-daemon), where the
/// test owns `org.freedesktop.Notifications` and records the calls shelf makes.
final class DesktopNotificationTests: NotificationTestCase {
    var bus: PrivateSessionBus!
    var server: FakeNotificationServer!

    override func setUpWithError() throws {
        guard PrivateSessionBus.daemonPath != nil else {
            throw XCTSkip(
                "dbus-daemon is not installed (Debian package dbus-daemon; scripts/install-deps.sh installs it)")
        }
        try super.setUpWithError()
        bus = try PrivateSessionBus()
        server = try FakeNotificationServer(address: bus.address)
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    }

    override func tearDown() {
        server?.stop()
        bus?.stop()
        super.tearDown()
    }

    let waiting = "urn:fake:ebook-out"
    let readyText = "Waiting Game is ready to be checked out. You have 3 days to complete checkout of this item."

    func testSyncSendsTheExactTextToTheDesktopOnceAndClosesItWhenWithdrawn() throws {
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        try run(["sync"])
        XCTAssertEqual(server.notifyCalls, [])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        try run(["sync"])
        let calls = server.waitForNotify(count: 1)
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.appName, "shelf")
        XCTAssertEqual(calls.first?.summary, readyText, "the whole text, the same as everywhere")
        XCTAssertEqual(calls.first?.body, "")
        XCTAssertEqual(calls.first?.expireTimeout, -1)
        XCTAssertEqual(try notifications().first?["onDesktop"] as? Bool, true)
        try run(["sync"])
        try run(["watch", "--once"])
        XCTAssertEqual(server.notifyCalls.count, 1, "once only")
        // Borrowed: withdrawn, and the desktop is asked to take it away.
        try run(["borrow", "urn:fake:ebook-out"])
        try run(["sync"])
        XCTAssertEqual(server.calls.filter { $0.method == "CloseNotification" }.map(\.closedID), [42])
    }

    func testWatcherDeliversALoanEndingAndTheEndItself() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd(road, Date().addingTimeInterval(7 * Self.day))
        try run(["watch", "--once"])
        library.advanceClock(by: 7 * Self.day)
        try run(["watch", "--once"])
        XCTAssertEqual(
            server.waitForNotify(count: 2).map(\.summary),
            ["The Open Road has one week left before it will be returned.", "The Open Road has been returned."])
    }

    /// A watcher of a `Shelf` made in this process (as the browser app makes one) delivers to the desktop of the
    /// Shelf's environment, the private bus here, not to the process's.
    func testAnInProcessWatcherDeliversToItsShelfsDesktop() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", road])
        library.setLoanEnd(road, Date().addingTimeInterval(7 * Self.day))
        try Shelf(environment: shelf.environment).library().watcher(interval: 60).run(cycles: 1) { _ in }
        XCTAssertEqual(
            server.waitForNotify(count: 1).map(\.summary),
            ["The Open Road has one week left before it will be returned."])
    }

    func testANotificationServiceAnsweringGarbageOrFailingChangesNothingElse() throws {
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        server.behaviour = .garbage
        try run(["watch", "--once"])
        XCTAssertEqual(server.waitForNotify(count: 1).count, 1)
        XCTAssertEqual(try texts(), [readyText], "stored and listed all the same")
        XCTAssertEqual(try notifications().first?["onDesktop"] as? Bool, false)

        server.behaviour = .failing
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(Self.day))
        let result = try run(["watch", "--once"])
        XCTAssertEqual(
            result.stdout, "The Open Road has one day left before it must be returned. (shelf open-notification 2)\n")
        // The first, which the garbage answer did not take, is offered again beside the new one.
        XCTAssertEqual(
            server.waitForNotify(count: 3).map(\.summary).sorted(),
            [readyText, readyText, "The Open Road has one day left before it must be returned."].sorted())
        XCTAssertEqual(try texts().count, 2)
    }

    /// libdbus (and libsystemd, libgcrypt and the rest behind it) is not linked: commands with nothing for the
    /// desktop never load it, even with a session bus, and the first notification for the desktop does.
    /// LD_DEBUG=libs makes ld.so name on stderr every library it loads, at start or by dlopen.
    func testLibdbusIsOpenedOnlyWhenSomethingGoesToTheDesktop() throws {
        let libdbus = "library=libdbus-1.so.3"
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        shelf.environment["LD_DEBUG"] = "libs"
        let version = try run(["--version"])
        XCTAssertTrue(
            version.stderr.contains("library=libsqlite3.so.0"), "ld.so names what it loads:\n\(version.stderr)")
        XCTAssertFalse(version.stderr.contains(libdbus), "shelf --version loaded libdbus")
        XCTAssertFalse(try run(["sync"]).stderr.contains(libdbus), "a sync with nothing to notify loaded libdbus")
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        XCTAssertTrue(try run(["sync"]).stderr.contains(libdbus), "a notification for the desktop did not load libdbus")
        XCTAssertEqual(server.waitForNotify(count: 1).map(\.summary), [readyText])
    }

    /// A libdbus that cannot be opened (here: a file of that name that is no library, found first through
    /// LD_LIBRARY_PATH) costs the desktop only: one line says what to install, the notification is kept and
    /// offered once like with no desktop, and shelf goes on.
    func testWithoutLibdbusShelfSaysWhatToInstallAndKeepsTheNotification() throws {
        let folder = shelf.home.appendingPathComponent("broken-libdbus")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: folder.appendingPathComponent("libdbus-1.so.3"))
        shelf.environment["LD_LIBRARY_PATH"] = folder.path
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        XCTAssertEqual(try run(["sync"]).stderr, "", "nothing for the desktop, nothing to say")
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        let result = try run(["sync"])
        let said = complaints(result.stderr)
        XCTAssertTrue(
            said.hasPrefix("shelf: 1 notification could not be shown on the desktop: libdbus could not be opened ("),
            said)
        XCTAssertTrue(
            said.hasSuffix("): install it with apt-get install libdbus-1-3. `shelf notifications` lists it.\n"), said)
        XCTAssertEqual(try texts(), [readyText])
        XCTAssertEqual(try notifications().first?["onDesktop"] as? Bool, false)
        XCTAssertEqual(try run(["sync"]).stderr, "", "offered once, said once")
        XCTAssertEqual(server.notifyCalls, [])
    }

    func testNoBusMeansNoDesktopAndNoComplaint() throws {
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        let result = try run(["sync"])
        XCTAssertEqual(complaints(result.stderr), "")
        // A bus address that leads nowhere: quiet too.
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(Self.day))
        XCTAssertEqual(complaints(try run(["sync"]).stderr), "")
        XCTAssertEqual(try texts().count, 2)
        XCTAssertEqual(server.notifyCalls, [])
    }

    // MARK: Issue 18, items 6 and 7

    func testASupersededNoticeIsTakenOffTheDesktop() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", "urn:fake:ebook-free"])
        library.setLoanEnd(road, Date().addingTimeInterval(6 * Self.day + 12 * 3600))
        try run(["sync"])
        XCTAssertEqual(
            server.waitForNotify(count: 1).map(\.summary),
            ["The Open Road has one week left before it will be returned."])
        library.advanceClock(by: 5 * Self.day + 13 * 3600)
        try run(["sync"])
        XCTAssertEqual(
            server.waitForNotify(count: 2).map(\.summary).last,
            "The Open Road has one day left before it must be returned.")
        XCTAssertEqual(
            server.calls.filter { $0.method == "CloseNotification" }.map(\.closedID), [42], "the week notice withdrawn")
        XCTAssertEqual(
            try notifications(all: true).compactMap { $0["state"] as? String }.sorted(), ["superseded", "unread"])
    }

    func testANotificationNoDesktopTookIsShownAtALaterSync() throws {
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        try addAndLogin()
        try run(["reserve", "urn:fake:ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        try run(["sync"])
        XCTAssertEqual(server.notifyCalls, [])
        // The desktop's session comes up: the next sync shows it, and only once.
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        try run(["sync"])
        XCTAssertEqual(server.waitForNotify(count: 1).map(\.summary), [readyText])
        try run(["sync"])
        XCTAssertEqual(server.notifyCalls.count, 1, "shown once")
        XCTAssertEqual(try notifications().first?["onDesktop"] as? Bool, true)
    }
}

/// What a sync said on stderr besides its notifications (which a sync off a terminal tells, one line each).
private func complaints(_ stderr: String) -> String {
    stderr.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("Notification: ") }.joined(separator: "\n")
}
