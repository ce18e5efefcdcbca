import Foundation
import TestSupport
import XCTest

/// A title a catalog gives away needs no loan: asking to borrow it says so, even where the catalog lists no loans
/// feed to ask after (the bundled on-disk library). The check that a loan or hold is confirmed by the library
/// refused it with "the library did not answer" (exit 75).
final class OpenAccessTests: ShelfTestCase {
    func testBorrowingAnOpenAccessTitleOfACatalogOnDiskSaysItIsFree() throws {
        let library = ShelfProcess.packageRoot.appendingPathComponent("samples/library")
        try run(["account", "add", library.absoluteString])
        try run(["browse"])
        let borrowed = try json(try run(["borrow", "urn:shelf:sample:a-winter-crossing", "--json"]))
        XCTAssertEqual(borrowed["result"] as? String, "open-access", "\(borrowed)")
        let loans = try run(["loans", "--json"])
        XCTAssertFalse(
            loans.stdout.contains("a-winter-crossing"), "an open-access title became a loan: \(loans.stdout)")
    }
}
