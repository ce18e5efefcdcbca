import Foundation
@testable import ShelfLibrary
import ShelfValues
import XCTest

/// A remote book started at the moment its first part became whole was refused: "no track of this audiobook has been
/// downloaded yet" (exit 75; seen once in UnknownLengthTests under load). The downloader renames the part's `.part`
/// file to its own name and only then says it is complete; in between, the part was neither whole nor growing.
final class GrowingPartTests: XCTestCase {
    func testAPartRenamedWholeButNotYetSaidCompletePlaysFromItsWholeFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("part-0001.mp3")
        var part = DownloadPart(
            index: 0, url: URL(string: "http://127.0.0.1/track1.mp3")!, destination: whole,
            state: .downloading, bytes: 0, total: nil, reason: nil)
        let bytes = Data(repeating: 0xFF, count: 64 * 1024)

        XCTAssertNil(RemoteAudiobook.growingFile(of: part), "nothing here yet")
        try bytes.write(to: URL(fileURLWithPath: whole.path + ".part"))
        XCTAssertEqual(RemoteAudiobook.growingFile(of: part), whole.path + ".part", "what has arrived so far")
        XCTAssertEqual(rename(whole.path + ".part", whole.path), 0)
        XCTAssertEqual(RemoteAudiobook.growingFile(of: part), whole.path, "renamed whole, not yet said complete")
        part.state = .complete
        XCTAssertNil(
            RemoteAudiobook.growingFile(of: part), "complete: it plays as a track that is here, not a growing one")
    }
}
