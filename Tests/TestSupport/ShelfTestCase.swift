import Foundation
import XCTest

/// A test that runs the built `shelf` as a patron does, in a home of its own.
open class ShelfTestCase: XCTestCase {
    public var shelf: ShelfProcess!

    override open func setUpWithError() throws {
        shelf = try ShelfProcess()
        // One attempt and a short wait: a test that provokes a failure should see it at once.
        shelf.environment["SHELF_HTTP_RETRIES"] = "1"
        shelf.environment["SHELF_HTTP_TIMEOUT"] = "10"
    }

    override open func tearDown() {
        shelf?.cleanUp()
    }

    /// Runs shelf; a different exit status fails the test with the command and both outputs.
    @discardableResult
    public func run(
        _ arguments: [String], stdin: String? = nil, expect status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ShelfProcess.Result {
        let result = try shelf.run(arguments, stdin: stdin.map { Data($0.utf8) })
        XCTAssertEqual(
            result.status, status, "shelf \(arguments.joined(separator: " ")):\n\(result.stdout)\n\(result.stderr)",
            file: file, line: line)
        return result
    }

    public func json(_ result: ShelfProcess.Result) throws -> [String: Any] {
        try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
    }
}

/// A `ShelfTestCase` with a fake library on loopback of its own.
open class LibraryTestCase: ShelfTestCase {
    public var library: FakeLibrary!

    override open func setUpWithError() throws {
        library = try FakeLibrary()
        try super.setUpWithError()
    }

    override open func tearDown() {
        library?.stop()
        super.tearDown()
    }

    /// Adds the fake library as the account "fake" and signs in as its patron.
    open func addAndLogin() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
    }
}
