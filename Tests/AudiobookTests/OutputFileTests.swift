import Foundation
import ShelfCore
import TestSupport
import XCTest

/// A file the patron names for shelf's output is written as a shell's `>` writes it: through a link, never by
/// replacing the link, and never over a device, pipe or folder. Found when `shelf listen --out /dev/full`, run as
/// root, left /dev/full a regular file: the WAV file was made by renaming a new file over the path.
final class OutputFileTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    func testPlayWritesThroughALinkAndKeepsIt() throws {
        let book = try AudioFixtures.speechWAV(0)
        let target = process.home.appendingPathComponent("target.wav")
        let link = process.home.appendingPathComponent("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.wav")
        let r = try process.run(["play", book.path, "--out", link.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "target.wav",
            "the link is still a link")
        let written = try Data(contentsOf: target)
        XCTAssertGreaterThan(written.count, 44, "the sound went to the file the link names")
        XCTAssertEqual(String(decoding: written.prefix(4), as: UTF8.self), "RIFF")
    }

    func testPlayRefusesAPipeAndLeavesIt() throws {
        let book = try AudioFixtures.speechWAV(0)
        let fifo = process.home.appendingPathComponent("pipe.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let r = try process.run(["play", book.path, "--out", fifo.path])
        XCTAssertEqual(r.status, 74, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(fifo.path): is not a regular file"), r.stderr)
        XCTAssertFalse(r.stdout.contains("Playing"), "refused before it says it plays: \(r.stdout)")
        var info = stat()
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the pipe is still a pipe")
    }

    func testAWholeFileGoesThroughALinkAndAFolderIsRefused() throws {
        let folder = process.home.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("cover.jpg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.jpg")
        try OutputFile.write(Data("first".utf8), to: link.path)
        try OutputFile.write(Data("second".utf8), to: link.path)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real.jpg")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("real.jpg"), encoding: .utf8), "second")
        XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: folder.path)) { error in
            XCTAssertTrue("\(error)".contains("cannot write a file where a folder is"), "\(error)")
        }
        XCTAssertThrowsError(try OutputFile.write(Data("x".utf8), to: folder.appendingPathComponent("missing/x").path))
        { error in
            XCTAssertTrue("\(error)".contains("(No such file or directory)"), "the cause is said: \(error)")
        }
    }
}
