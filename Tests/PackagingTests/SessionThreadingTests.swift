import Foundation
import TestSupport
import XCTest

/// The session API is called from several threads at once (the browser app serves concurrent requests), so each
/// public type of the facade says how that is safe (issue 13): it is `Sendable`, which the compiler checks, or its
/// comment says which threads may call it and why that is safe.
final class SessionThreadingTests: XCTestCase {
    func testEveryPublicTypeOfTheFacadeSaysHowItIsSafeFromSeveralThreads() throws {
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources/Host")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        var silent: [String] = [], types = 0
        for case let url as URL in walker where url.pathExtension == "swift" {
            var comment = ""
            for (number, line) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("///") { comment += line; continue }
                defer { comment = "" }
                guard line.range(of: #"^public (final class|class|struct|enum|protocol) "#, options: .regularExpression) != nil else { continue }
                types += 1
                if line.contains("Sendable") || comment.localizedCaseInsensitiveContains("thread") { continue }
                silent.append("\(url.path.dropFirst(root.path.count + 1)):\(number + 1): \(line)")
            }
        }
        XCTAssertGreaterThan(types, 50, "the facade's public types were not found")
        XCTAssertEqual(silent, [], "these say nothing of threads:\n" + silent.joined(separator: "\n"))
    }
}
