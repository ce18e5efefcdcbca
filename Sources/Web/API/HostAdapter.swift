import Foundation

/// Where the browser app still asks the host through this same `shelf` executable's commands with `--json`
/// (written before the session API existed): the reader's place, settings, bookmarks, search and resources, and
/// the player's tracks. The library (accounts, catalog, circulation, downloads, sync, lists) calls the session API
/// in process. A child process costs each call 0.2-0.6 s, so no route a patron waits on should stay here.
public final class HostAdapter: Sendable {
    let executable: URL
    let environment: [String: String]
    let pluginPaths: [String]
    /// A library that does not answer within this is reported, not waited for.
    let timeout: TimeInterval

    public init(executable: URL, environment: [String: String], pluginPaths: [String] = [], timeout: TimeInterval = 120) {
        self.executable = executable
        var environment = environment
        environment["NO_COLOR"] = "1"
        self.environment = environment
        self.pluginPaths = pluginPaths
        self.timeout = timeout
    }

    /// Runs `shelf ARGS --json` and returns its JSON document. A non-zero exit is a `HostFailure` carrying the
    /// command's own words, unless `accepting` lists that exit code (e.g. 69 for a borrow that found no copy:
    /// its document says so).
    public func json(_ arguments: [String], stdin: String? = nil, accepting: Set<Int32> = []) throws -> Data {
        let result = try run(arguments + ["--json"], stdin: stdin)
        guard result.status == 0 || accepting.contains(result.status) else {
            let (message, hint) = Self.message(result.stderr)
            throw HostFailure(exitCode: result.status, message: message, hint: hint, document: result.stdout)
        }
        return result.stdout.isEmpty ? Data("null".utf8) : result.stdout
    }

    /// The JSON document as Foundation objects.
    public func object(_ arguments: [String], stdin: String? = nil, accepting: Set<Int32> = []) throws -> Any {
        let data = try json(arguments, stdin: stdin, accepting: accepting)
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw HostFailure(exitCode: 70, message: "shelf \(arguments.first ?? "") printed something that is not JSON", hint: nil, document: data)
        }
        return value
    }

    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: Data
    }

    private func run(_ arguments: [String], stdin: String?) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = pluginPaths.flatMap { ["--plugin-path", $0] } + arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        do {
            try process.run()
        } catch {
            throw HostFailure(exitCode: 69, message: "cannot run \(executable.path): \(error)", hint: nil, document: Data())
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()  // the command reads to the end; nothing to report if it did not read
        // Both pipes are drained while the command runs, so a large document cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        if group.wait(timeout: .now() + timeout) == .timedOut { process.terminate() }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outputData, stderr: errorData)
    }

    /// The command's error in two parts: its first line (what went wrong) and the hint after it.
    static func message(_ stderr: Data) -> (title: String, hint: String?) {
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n")
        let error = lines.drop { !$0.hasPrefix("shelf: ") }
        let text = (error.isEmpty ? lines[...] : error).map { $0.hasPrefix("shelf: ") ? String($0.dropFirst(7)) : $0.trimmingCharacters(in: .whitespaces) }
        let hint = text.dropFirst().joined(separator: " ")
        return (text.first ?? "", hint.isEmpty ? nil : hint)
    }
}

/// A command that did not succeed: its sysexits code and its words, which the API passes on.
public struct HostFailure: Error, Sendable {
    public let exitCode: Int32
    public let message: String
    public var hint: String?
    /// What it printed on stdout, if anything (a borrow that found no copy still describes the title).
    public let document: Data

    var webError: WebError { WebError(hostExitCode: exitCode, message: message, hint: hint) }
}
