import Foundation
import TestSupport
import XCTest

/// `shelf serve --open URL` says that it opens files, and how to play a book from its address. Failed before: the
/// address was taken for a file in the current folder ("./https:/…"), the server started and the browser's page
/// then failed to open it; the command never said why.
final class ServeOpenAddressTests: XCTestCase {
    func testAnAddressIsRefusedWithTheWayToPlayIt() throws {
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let address = "https://library.invalid/books/lighthouse/manifest.json"
        let r = try process.run(["serve", "--open", address], timeout: 30)
        XCTAssertEqual(r.status, 64, "a usage error (EX_USAGE): \(r.stdout) \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("opens a file on this computer"), r.stderr)
        XCTAssertTrue(r.stderr.contains("`shelf play \(address)`"), r.stderr)
        XCTAssertFalse(r.stdout.contains("shelf is serving"), r.stdout)
    }
}
