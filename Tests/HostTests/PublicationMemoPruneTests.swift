import Foundation
@testable import Host
@testable import ShelfPlugins
import XCTest

/// The memo cache stays bounded: past the limit, the memos written longest ago go, and nothing else.
final class PublicationMemoPruneTests: XCTestCase {
    func testPruneKeepsTheNewestMemosAndEveryOtherFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memo-prune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date()
        for (i, name) in ["a.memo", "b.memo", "c.memo", "d.memo", "notes.txt"].enumerated() {
            let file = folder.appendingPathComponent(name)
            try Data("x".utf8).write(to: file)
            // a is the oldest, d the newest; the other file is older than all of them.
            let age = name == "notes.txt" ? 10_000.0 : Double(100 * (4 - i))
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: file.path)
        }
        PublicationMemo.prune(folder, limit: 2)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["c.memo", "d.memo", "notes.txt"]
        )
        PublicationMemo.prune(folder, limit: 2)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 3, "under the limit, nothing goes")
    }
}
