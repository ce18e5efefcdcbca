import Foundation
import TestSupport
import XCTest

/// `--out -` means standard output, as it does for every command-line tool: `shelf play BOOK --out - | aplay` plays.
/// Failed before: shelf wrote a file named "-" in the current folder and nothing on standard output.
final class StandardOutputTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    func testOutDashWritesAWAVStreamOnStandardOutput() throws {
        let folder = process.home.appendingPathComponent("here")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shelf = Process()
        shelf.executableURL = ShelfProcess.executable
        shelf.arguments = ["play", try ListenerTimeTests.tone().path, "--from", "0", "--sleep", "0.02", "--out", "-"]
        shelf.environment = process.environment
        shelf.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        shelf.standardOutput = out
        shelf.standardError = err
        try shelf.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shelf.waitUntilExit()
        XCTAssertEqual(shelf.terminationStatus, 0, errors)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path), "no file named -")
        XCTAssertEqual(String(decoding: data.prefix(4), as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: data.dropFirst(8).prefix(4), as: UTF8.self), "WAVE")
        // 1.2 seconds of 16-bit mono at 44.1 kHz after the 44 bytes of header, and nothing else.
        XCTAssertEqual(Double(data.count - 44), 1.2 * 44100 * 2, accuracy: 44100 * 2 * 0.05)
    }

    func testListenRefusesOutDash() throws {
        let r = try process.run(["listen", try ListenerTimeTests.tone().path, "--out", "-"], stdin: Data("q".utf8))
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("--out FILE.wav"), r.stderr)
    }
}
