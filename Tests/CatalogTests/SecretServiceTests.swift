import Foundation
import TestSupport
import XCTest

/// Issue 18, item 17: where a Secret Service is on the session bus, the password and tokens are kept there, and no
/// file under shelf's folders holds them in any form; without one, the 0600 file.
final class SecretServiceTests: LibraryTestCase {
    var keyring: PrivateKeyring!

    override func setUpWithError() throws {
        if let missing = PrivateKeyring.missing { throw XCTSkip(missing) }
        try super.setUpWithError()
        keyring = try PrivateKeyring()
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = keyring.address
    }

    override func tearDown() {
        keyring?.stop()
        super.tearDown()
    }

    /// Every form a secret could take in a file: as is, base64, hex (either case), and inside a Basic header.
    private func forms(_ secret: String) -> [Data] {
        let bytes = Data(secret.utf8)
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [bytes, Data(bytes.base64EncodedString().utf8), Data(hex.utf8), Data(hex.uppercased().utf8)]
    }

    private func filesUnderShelf() -> [URL] {
        let walker = FileManager.default.enumerator(at: shelf.home, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    func testPasswordAndTokenLiveInTheKeyringAndInNoFile() throws {
        try run(["account", "add", library.root, "--name", "fake"])
        let login = try run(
            ["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        XCTAssertTrue(login.stdout.contains("kept in the desktop's Secret Service"), login.stdout)
        try run(["browse"])
        try run(["borrow", "urn:fake:ebook-free"])
        try run(["sync"])
        XCTAssertTrue(library.onLoan("urn:fake:ebook-free"), "signed in through the keyring's token")
        let token = try XCTUnwrap(library.tokens.first)
        let basic = library.username + ":" + library.password
        let secrets = forms(library.password) + forms(token) + forms(basic)
        let files = filesUnderShelf()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: file)
            for secret in secrets {
                XCTAssertNil(data.range(of: secret), "\(file.path) holds a secret")
            }
        }
        let stored = try String(
            contentsOf: shelf.home.appendingPathComponent("config/credentials.json"), encoding: .utf8)
        XCTAssertTrue(stored.contains("secret-service"), stored)

        // A token the library forgets is renewed with the card and PIN from the keyring.
        library.forgetTokens()
        try run(["return", "urn:fake:ebook-free"])
        XCTAssertFalse(library.onLoan("urn:fake:ebook-free"))

        // Signing out clears the keyring too: nothing is left to sign in with.
        try run(["logout"])
        try run(["borrow", "urn:fake:ebook-free"], expect: 77)
    }

    func testWithoutASecretServiceTheFileIsUsed() throws {
        keyring.stop()
        shelf.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        try run(["account", "add", library.root, "--name", "fake"])
        let login = try run(
            ["login", "--username", library.username, "--password-stdin"], stdin: library.password + "\n")
        XCTAssertTrue(login.stdout.contains("kept in shelf's credentials file"), login.stdout)
        let stored = try String(
            contentsOf: shelf.home.appendingPathComponent("config/credentials.json"), encoding: .utf8)
        XCTAssertTrue(stored.contains("password") && !stored.contains("secret-service"), stored)
        let mode = try FileManager.default.attributesOfItem(
            atPath: shelf.home.appendingPathComponent("config/credentials.json").path)[.posixPermissions]
        XCTAssertEqual((mode as? NSNumber)?.intValue, 0o600)
    }
}
