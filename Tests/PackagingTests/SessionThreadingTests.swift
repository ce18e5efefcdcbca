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
            for (number, line) in try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                if line.hasPrefix("///") { comment += line; continue }
                defer { comment = "" }
                guard
                    line.range(of: #"^public (final class|class|struct|enum|protocol) "#, options: .regularExpression)
                        != nil
                else { continue }
                types += 1
                if line.contains("Sendable") || comment.localizedCaseInsensitiveContains("thread") { continue }
                silent.append("\(url.path.dropFirst(root.path.count + 1)):\(number + 1): \(line)")
            }
        }
        XCTAssertGreaterThan(types, 50, "the facade's public types were not found")
        XCTAssertEqual(silent, [], "these say nothing of threads:\n" + silent.joined(separator: "\n"))
    }

    /// Issue 31: an `@unchecked Sendable` is a promise the compiler does not check, so each one in Sources says why it
    /// holds, in the comment just above it (or on its line): "Unchecked Sendable: ...", or how it is safe from
    /// several threads (the facade's convention above). One that says nothing fails here, with its file and line.
    func testEveryUncheckedSendableSaysWhy() throws {
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources")
        var silent: [String] = [], count = 0
        for url in try Self.swiftFiles(under: root) {
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where Self.declaresUncheckedSendable(line) {
                count += 1
                if !Self.saysWhy(Self.comment(above: index, in: lines) + " " + Self.trailingComment(line)) {
                    silent.append(
                        "\(url.path.dropFirst(root.path.count + 1)):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))"
                    )
                }
            }
        }
        XCTAssertGreaterThan(count, 20, "the sources were not found")
        XCTAssertEqual(silent, [], "an @unchecked Sendable that does not say why:\n" + silent.joined(separator: "\n"))
    }

    /// The check finds a bare one and passes one that says why.
    func testTheCheckFindsAnUncheckedSendableWithoutAReason() {
        let bare = ["/// Keeps the pages.", "final class Pages: @unchecked Sendable {"]
        XCTAssertTrue(Self.declaresUncheckedSendable(bare[1]))
        XCTAssertFalse(Self.saysWhy(Self.comment(above: 1, in: bare)))
        let said = [
            "/// Keeps the pages.", "/// Unchecked Sendable: the pages are kept under `lock`.",
            "@available(*, deprecated)",
            "final class Pages: @unchecked Sendable {"
        ]
        XCTAssertTrue(Self.saysWhy(Self.comment(above: 3, in: said)))
        XCTAssertFalse(Self.declaresUncheckedSendable("// an @unchecked Sendable in a comment"))
    }

    static func declaresUncheckedSendable(_ line: String) -> Bool {
        let code = line.components(separatedBy: "//")[0]
        return code.contains("@unchecked Sendable")
    }

    static func saysWhy(_ comment: String) -> Bool {
        ["unchecked sendable:", "sendable by hand", "thread", "hence unchecked"].contains {
            comment.lowercased().contains($0)
        }
    }

    /// The comment lines just above line `index` (attributes between them and the declaration skipped).
    static func comment(above index: Int, in lines: [String]) -> String {
        var said: [String] = [], at = index - 1
        while at >= 0 {
            let line = lines[at].trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("//") || line.hasPrefix("@") else { break }
            said.append(line)
            at -= 1
        }
        return said.reversed().joined(separator: " ")
    }

    static func trailingComment(_ line: String) -> String {
        line.range(of: "//").map { String(line[$0.upperBound...]) } ?? ""
    }

    static func swiftFiles(under root: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}
