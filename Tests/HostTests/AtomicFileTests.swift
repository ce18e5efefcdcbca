import Foundation
@testable import Host
import ShelfCore
import XCTest

/// Cache files are replaced in one step and leave nothing behind.
final class AtomicFileTests: XCTestCase {
    func testAFileIsReplacedWholeAndNothingIsLeftBeside() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache").path
        XCTAssertTrue(AtomicFile.replace(file, with: Array("first, and longer".utf8)))
        XCTAssertTrue(AtomicFile.replace(file, with: Array("second".utf8)))
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("second".utf8))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path), ["cache"], "no temporary file left")
        let big = [UInt8](repeating: 7, count: 3 << 20)
        XCTAssertTrue(AtomicFile.replace(file, with: big))
        XCTAssertEqual(FileManager.default.contents(atPath: file).map { [UInt8]($0) }, big)
        XCTAssertFalse(AtomicFile.replace(folder.appendingPathComponent("no/such/folder").path, with: [1]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["cache"])
    }
}
