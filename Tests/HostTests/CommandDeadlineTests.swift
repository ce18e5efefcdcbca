import Foundation
import XCTest
@testable import Host
@testable import ShelfCore

/// The network limit belongs to a command, not to the process: a process that serves many patron actions
/// (`shelf serve`, this test runner) must not see its requests refused once its first 20 seconds have passed.
final class CommandDeadlineTests: XCTestCase {
    func testWithoutACommandEachRequestGetsALimitOfItsOwn() {
        let first = CommandDeadline.current(orNew: CommandDeadline.defaultSeconds)
        Thread.sleep(forTimeInterval: 0.2)
        let second = CommandDeadline.current(orNew: CommandDeadline.defaultSeconds)
        XCTAssertFalse(first === second, "a request outside a command shared an earlier request's limit")
        XCTAssertGreaterThan(
            second.remaining, first.remaining,
            "the later request's limit started when the earlier one's did")
        XCTAssertEqual(second.remaining, CommandDeadline.defaultSeconds, accuracy: 1)
    }

    /// A command's limit (a watcher's round) ends with it: later requests of a process that serves others get
    /// limits of their own, not the ended command's.
    func testAnEndedCommandLeavesNoLimitBehind() {
        CommandDeadline.begin(seconds: 0.5)
        XCTAssertEqual(CommandDeadline.current(orNew: 30).seconds, 0.5, "inside the command, its limit")
        CommandDeadline.end()
        XCTAssertEqual(CommandDeadline.current(orNew: 30).seconds, 30, "after it, a limit of the request's own")
    }
}
