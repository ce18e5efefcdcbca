import Foundation
import TestSupport
import XCTest

/// Ctrl-C as a terminal sends it: the first only asks what is running to stop (the signal handler sets a flag and
/// nothing else), a second one ends shelf at once with 130.
final class InterruptTests: XCTestCase {
    func testTheFirstCtrlCAsksTheSecondEndsWith130() throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let book = ShelfProcess.packageRoot.appendingPathComponent("samples/library/audio/harbour-bells.json").path
        let process = Process()
        process.executableURL = ShelfProcess.executable
        // The player waits for keys on standard input, which stays open: nothing but a signal ends it.
        process.arguments = ["listen", book, "--null"]
        process.environment = shelf.environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // Wait for the player's first line: the handler is installed long before it.
        let firstLine = output.fileHandleForReading.availableData
        XCTAssertTrue(String(decoding: firstLine, as: UTF8.self).contains("Paused"), String(decoding: firstLine, as: UTF8.self))

        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(process.isRunning, "the first Ctrl-C only asks; the player is still waiting for a key")
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(process.isRunning, "the second Ctrl-C ends shelf")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        try? input.fileHandleForWriting.close()
    }
}
