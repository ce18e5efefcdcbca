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
        XCTAssertGreaterThan(second.remaining, first.remaining,
                             "the later request's limit started when the earlier one's did")
        XCTAssertEqual(second.remaining, CommandDeadline.defaultSeconds, accuracy: 1)
    }
}
