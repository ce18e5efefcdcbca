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
            throw XCTSkip("dbus-daemon is not installed (Debian package dbus-daemon; scripts/install-deps.sh installs it)")
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
        try run(["reserve", "ebook-out"])
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
        try run(["borrow", "ebook-out"])
        try run(["sync"])
        XCTAssertEqual(server.calls.filter { $0.method == "CloseNotification" }.map(\.closedID), [42])
    }

    func testWatcherDeliversALoanEndingAndTheEndItself() throws {
        try addAndLogin()
        let road = "urn:fake:ebook-free"
        try run(["borrow", "ebook-free"])
        library.setLoanEnd(road, Date().addingTimeInterval(7 * Self.day))
        try run(["watch", "--once"])
        library.advanceClock(by: 7 * Self.day)
        try run(["watch", "--once"])
        XCTAssertEqual(server.waitForNotify(count: 2).map(\.summary),
                       ["The Open Road has one week left before it will be returned.", "The Open Road has been returned."])
    }

    func testANotificationServiceAnsweringGarbageOrFailingChangesNothingElse() throws {
        try addAndLogin()
        try run(["reserve", "ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        server.behaviour = .garbage
        try run(["watch", "--once"])
        XCTAssertEqual(server.waitForNotify(count: 1).count, 1)
        XCTAssertEqual(try texts(), [readyText], "stored and listed all the same")
        XCTAssertEqual(try notifications().first?["onDesktop"] as? Bool, false)

        server.behaviour = .failing
        try run(["borrow", "ebook-free"])
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(Self.day))
        let result = try run(["watch", "--once"])
        XCTAssertEqual(result.stdout, "The Open Road has one day left before it must be returned. (shelf open-notification 2)\n")
        XCTAssertEqual(server.waitForNotify(count: 2).count, 2)
        XCTAssertEqual(try texts().count, 2)
    }

    func testNoBusMeansNoDesktopAndNoComplaint() throws {
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        try addAndLogin()
        try run(["reserve", "ebook-out"])
        library.makeHoldReady(waiting)
        library.setHoldEnd(waiting, Date().addingTimeInterval(3 * Self.day))
        let result = try run(["sync"])
        XCTAssertEqual(result.stderr, "")
        // A bus address that leads nowhere: quiet too.
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        try run(["borrow", "ebook-free"])
        library.setLoanEnd("urn:fake:ebook-free", Date().addingTimeInterval(Self.day))
        XCTAssertEqual(try run(["sync"]).stderr, "")
        XCTAssertEqual(try texts().count, 2)
        XCTAssertEqual(server.notifyCalls, [])
    }
}
