import Foundation
import TestSupport
import XCTest

/// The library refuses the stored sign-in (the PIN changed at the library): `status` and `account list` say so
/// instead of "signed in", until a sync or a new sign-in gets in (issue 32, item 6).
final class SignInRefusedTests: LibraryTestCase {
    func testARefusedSignInIsSaidUntilTheLibraryLetsItIn() throws {
        try addAndLogin()
        try run(["sync"])
        library.password = "changed-at-the-library"
        library.forgetTokens()
        try run(["sync"], expect: 77)

        let status = try run(["status"])
        XCTAssertTrue(status.stdout.contains("sign-in refused"), status.stdout)
        XCTAssertFalse(status.stdout.contains("signed in ·"), status.stdout)
        let list = try run(["account", "list"])
        XCTAssertTrue(list.stdout.contains("Sign-in refused"), list.stdout)
        XCTAssertFalse(list.stdout.contains("Signed in"), list.stdout)
        let document = try XCTUnwrap(try run(["account", "list", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(document.first?["signInRefused"] as? Bool, true)
        let statusDocument = try json(try run(["status", "--json"]))
        XCTAssertEqual((statusDocument["accounts"] as? [[String: Any]])?.first?["signInRefused"] as? Bool, true)

        // Signed in again with the new PIN: no longer refused.
        try run(["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        XCTAssertTrue(try run(["account", "list"]).stdout.contains("Signed in"))
        XCTAssertFalse(try run(["status"]).stdout.contains("sign-in refused"))
    }
}
