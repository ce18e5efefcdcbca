import Foundation
import Host
import ShelfCore
import XCTest

final class ProcessEnvironmentTests: XCTestCase {
    func testItReadsWhatProcessInfoReads() {
        setenv("SHELF_ENV_TEST", "a=b=c", 1)
        defer { unsetenv("SHELF_ENV_TEST") }
        let ours = ProcessEnvironment.current()
        XCTAssertEqual(ours["SHELF_ENV_TEST"], "a=b=c", "only the first '=' separates the name")
        XCTAssertEqual(ours, ProcessInfo.processInfo.environment)
    }
}
