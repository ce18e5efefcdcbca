import Foundation
import TestSupport
import XCTest

/// Ctrl-C as a terminal sends it: the first asks what is running to stop (the signal handler sets a flag and nothing
/// else, and the player, waiting for a key, stops at once); a second one ends shelf at once with 130 even while it
/// is stuck where the flag is not looked at.
final class InterruptTests: XCTestCase {
    var book: String {
        ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio/harbour-bells.json").path
    }

    func start(_ shelf: ShelfProcess, _ arguments: [String], input: Pipe, output: Pipe) throws -> Process {
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = arguments
        process.environment = shelf.environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func waitForExit(_ process: Process, within seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }

    func testTheFirstCtrlCStopsThePlayerWaitingForAKey() throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let input = Pipe(), output = Pipe()
        // The player waits for keys on standard input, which stays open: nothing but a signal ends it.
        let process = try start(shelf, ["listen", book, "--null"], input: input, output: output)
        defer { if process.isRunning { process.terminate() } }
        let firstLine = output.fileHandleForReading.availableData
        XCTAssertTrue(
            String(decoding: firstLine, as: UTF8.self).contains("Paused"), String(decoding: firstLine, as: UTF8.self))
        kill(process.processIdentifier, SIGINT)
        waitForExit(process, within: 5)
        XCTAssertFalse(process.isRunning, "one Ctrl-C stops the player")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        try? input.fileHandleForWriting.close()
    }

    func testTheSecondCtrlCEndsWith130() throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let input = Pipe(), output = Pipe()
        // Raw sound into a pipe of one page that nobody reads: the player is stuck writing and cannot act on the first
        // Ctrl-C (the book's 67 kB of sound do not fit).
        _ = fcntl(output.fileHandleForWriting.fileDescriptor, 1031 /* F_SETPIPE_SZ */, 4096)
        let process = try start(shelf, ["play", book, "--from", "0", "--raw"], input: input, output: output)
        defer { if process.isRunning { process.terminate() } }
        // The first sound: the handler is installed long before it; then the pipe fills.
        XCTAssertFalse(output.fileHandleForReading.availableData.isEmpty)
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(process.isRunning, "the first Ctrl-C only asks; the player is still stuck writing")
        kill(process.processIdentifier, SIGINT)
        waitForExit(process, within: 10)
        XCTAssertFalse(process.isRunning, "the second Ctrl-C ends shelf")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        try? input.fileHandleForWriting.close()
    }
}
