import Foundation
import Glibc
import TestSupport
import XCTest

/// A system program the packaging tests run (man, groff, bash, zsh, fish, dpkg-deb, lintian…), found on PATH.
struct Tool {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let path: String

    /// The program, or a skip that names the Debian package `make test` installs it from (TEST_TOOLS).
    init(_ name: String, package: String) throws {
        let searched = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders: [String] = searched.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        guard let found = folders.map({ $0 + "/" + name }).first(where: { access($0, X_OK) == 0 }) else {
            throw XCTSkip(
                "\(name) is not installed: `make test` installs it (Debian package \(package), TEST_TOOLS in the Makefile)"
            )
        }
        path = found
    }

    @discardableResult
    func run(_ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        final class Box: @unchecked Sendable { var out = Data(), err = Data() }
        let box = Box()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.out = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { box.err = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + 300) == .timedOut {
            process.terminate()
            XCTFail("\(path) \(arguments) did not finish in 300 s")
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
            stderr: String(decoding: box.err, as: UTF8.self))
    }
}

extension ShelfProcess {
    /// The commands `shelf --help` lists, in its order.
    func listedCommands() throws -> [String] {
        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        guard let start = help.stdout.range(of: "Commands:\n") else {
            XCTFail("no Commands: in shelf --help"); return []
        }
        return help.stdout[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// A shelf with two books and the bundled sample library as an account.
    func withSampleShelf() throws {
        let samples = Self.packageRoot.appendingPathComponent("samples")
        let added = try run([
            "add", samples.appendingPathComponent("the-lighthouse-keeper.epub").path,
            samples.appendingPathComponent("a-winter-crossing.epub").path
        ])
        XCTAssertEqual(added.status, 0, added.stderr)
        let account = try run(["account", "add", samples.appendingPathComponent("library").absoluteString])
        XCTAssertEqual(account.status, 0, account.stderr)
    }
}
