import ShelfValues
import ShelfCore
import Foundation
import Glibc

/// Runs every conformance check in a child process of its own (`shelf conformance-check`), so a plugin that
/// crashes or hangs fails one check, with the call it was in and its backtrace, and the suite goes on.
///
/// A child returns its result in a file of its own, never on standard output (which the plugin could write to),
/// and runs with glibc's MALLOC_PERTURB_ and MALLOC_CHECK_, so a use of freed memory shows instead of hiding.
/// With `memcheck` the plugin also runs under valgrind (see Memcheck).
public struct ConformanceRunner {
    public let executable: String
    public let timeout: TimeInterval
    public let memcheck: Bool
    /// Extra settings for connectors (`--set KEY=VALUE` for every service, `--set SERVICE.KEY=VALUE` for one).
    public let settings: [String: String]
    /// The one connector service to check (`--service NAME`); nil for each.
    public let service: String?
    /// Secrets for connectors (`--secret KEY`): handed to each check in a 0600 file, never on a command line.
    public let secrets: [String: String]
    /// The environment of the Shelf that runs the suite: the children's, and where memcheck finds valgrind and the
    /// stand-in host (PATH, SHELF_PLUGIN_HOST).
    public let environment: [String: String]

    public init(
        environment: [String: String], executable: String = PluginSearchPath.executablePath(),
        timeout: TimeInterval = 30,
        memcheck: Bool = false, settings: [String: String] = [:], secrets: [String: String] = [:],
        service: String? = nil
    ) {
        self.environment = environment
        self.service = service
        self.executable = executable
        self.timeout = timeout
        self.memcheck = memcheck
        self.settings = settings
        self.secrets = secrets
    }

    /// Runs the checks named in `only` (every check when nil), in the suite's order.
    public func run(plugin: String, samples: [String], only: [String]? = nil) -> ConformanceReport {
        var results: [ConformanceResult] = []
        let folder = NSTemporaryDirectory() + "/shelf-conformance-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // As in ConformanceChecks.run: without the folder each check fails saying what it could not write.
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }  // tidying only, in the temporary folder
        if !secrets.isEmpty {
            _ = FileManager.default.createFile(
                atPath: folder + "/secrets.json", contents: Data(ReadingListJSON.string(secrets).utf8),
                attributes: [.posixPermissions: 0o600])
        }
        for check in ConformanceChecks.all where only?.contains(check.name) ?? true {
            // Nothing else can be checked in a library that does not load.
            if let load = results.first, load.check == "load", load.status != .passed {
                results.append(
                    ConformanceResult(check: check.name, status: .skipped, message: "the plugin did not load"))
                continue
            }
            results += runChild(check: check.name, plugin: plugin, samples: samples, folder: folder)
        }
        if memcheck, results.first?.status != .failed || results.first?.check != "load" {
            results.append(
                Memcheck(plugin: plugin, samples: samples, timeout: timeout * 10, environment: environment).run(
                    executable: executable, folder: folder))
        }
        var summary: [String: Int] = [:]
        for status in ConformanceResult.Status.allCases {
            summary[status.rawValue] = results.filter { $0.status == status }.count
        }
        return ConformanceReport(plugin: plugin, samples: samples, results: results, summary: summary)
    }

    /// One check's results: one, or one for each connector service it checked; one failed or crashed result when the
    /// child did not finish.
    func runChild(check: String, plugin: String, samples: [String], folder: String) -> [ConformanceResult] {
        let resultPath = folder + "/\(check).result.json", crashPath = folder + "/\(check).crash"
        let arguments =
            ["conformance-check", plugin, check] + samples.flatMap { ["--sample", $0] }
            + settings.sorted { $0.key < $1.key }.flatMap { ["--set", "\($0.key)=\($0.value)"] }
            + (service.map { ["--service", $0] } ?? [])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // The child loads nothing but the plugin under test.
        var environment = self.environment
        environment["SHELF_PLUGIN_PATH"] = nil
        environment["SHELF_CONFORMANCE_RESULT"] = resultPath
        environment["SHELF_CONFORMANCE_CRASH"] = crashPath
        environment["SHELF_CONFORMANCE_SECRETS"] = secrets.isEmpty ? nil : folder + "/secrets.json"
        environment["MALLOC_PERTURB_"] = "165"
        environment["MALLOC_CHECK_"] = "3"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        // Unchecked Sendable: the pipe's reader thread alone appends; `data` is read after the process ended and the reader finished.
        final class Collected: @unchecked Sendable { var data = Data() }
        let collected = Collected()
        let readDone = DispatchSemaphore(value: 0)
        do {
            try process.run()
        } catch {
            return [
                ConformanceResult(check: check, status: .failed, message: "could not start the check process: \(error)")
            ]
        }
        DispatchQueue(label: "conformance-output").async {
            collected.data = output.fileHandleForReading.readDataToEndOfFile()
            readDone.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            _ = readDone.wait(timeout: .now() + 2)
            return [
                ConformanceResult(
                    check: check, status: .failed,
                    message: "no answer within \(Int(timeout)) s: the plugin hangs (killed)" + Self.lastCall(crashPath))
            ]
        }
        _ = readDone.wait(timeout: .now() + 5)
        if process.terminationReason == .uncaughtSignal {
            return [
                ConformanceResult(
                    check: check, status: .crashed,
                    message: CrashReport(signal: process.terminationStatus, path: crashPath, plugin: plugin).description
                )
            ]
        }
        // No result the child wrote whole is a crash of its own kind, reported just below.
        guard let data = FileManager.default.contents(atPath: resultPath),
            let results = try? JSONDecoder().decode([ConformanceResult].self, from: data), !results.isEmpty
        else {
            return [
                ConformanceResult(
                    check: check, status: .crashed,
                    message:
                        "the check process ended (status \(process.terminationStatus)) without a result: the plugin called exit"
                        + Self.lastCall(crashPath))
            ]
        }
        // Printing while loading (a constructor) is caught here; printing in a call, by the child, naming it.
        if !results.contains(where: { $0.status == .failed || $0.status == .crashed }), !collected.data.isEmpty {
            let text = String(decoding: collected.data.prefix(120), as: UTF8.self).replacingOccurrences(
                of: "\n", with: "\\n")
            return [
                ConformanceResult(
                    check: check, status: .failed,
                    message:
                        "the plugin printed \(collected.data.count) bytes to standard output (\"\(text)\"): a plugin never prints (plugin.h)"
                )
            ]
        }
        return results
    }

    /// ", in CALL" when the child had started a call into the plugin (read from the crash channel's header).
    static func lastCall(_ crashPath: String) -> String {
        guard let call = CrashReport.call(path: crashPath) else { return "" }
        return ", in \(call)"
    }
}
