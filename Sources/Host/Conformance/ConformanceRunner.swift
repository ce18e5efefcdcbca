import Foundation
import Glibc

/// Runs every conformance check in a child process of its own (`shelf conformance-check`), so
/// a plugin that crashes or hangs fails one check with its signal, and the suite goes on.
public struct ConformanceRunner {
    public let executable: String
    public let timeout: TimeInterval

    public init(executable: String = PluginSearchPath.executablePath(), timeout: TimeInterval = 30) {
        self.executable = executable
        self.timeout = timeout
    }

    public func run(plugin: String, samples: [String]) -> ConformanceReport {
        var results: [ConformanceResult] = []
        for check in ConformanceChecks.all {
            // Nothing else can be checked in a library that does not load.
            if let load = results.first, load.status != .passed {
                results.append(ConformanceResult(check: check.name, status: .skipped, message: "the plugin did not load"))
                continue
            }
            results.append(runChild(check: check.name, plugin: plugin, samples: samples))
        }
        var summary: [String: Int] = [:]
        for status in ["passed", "failed", "crashed", "skipped", "warning"] {
            summary[status] = results.filter { $0.status.rawValue == status }.count
        }
        return ConformanceReport(plugin: plugin, samples: samples, results: results, summary: summary)
    }

    func runChild(check: String, plugin: String, samples: [String]) -> ConformanceResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["conformance-check", plugin, check] + samples.flatMap { ["--sample", $0] }
        // The child must load nothing but the plugin under test.
        var environment = ProcessEnvironment.shared
        environment["SHELF_PLUGIN_PATH"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        final class Collected: @unchecked Sendable { var data = Data() }
        let collected = Collected()
        let reader = DispatchQueue(label: "conformance-output")
        let readDone = DispatchSemaphore(value: 0)
        do {
            try process.run()
        } catch {
            return ConformanceResult(check: check, status: .failed, message: "could not start the check process: \(error)")
        }
        reader.async {
            collected.data = output.fileHandleForReading.readDataToEndOfFile()
            readDone.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            _ = readDone.wait(timeout: .now() + 2)
            return ConformanceResult(check: check, status: .failed, message: "no answer within \(Int(timeout)) s: the plugin hangs (killed)")
        }
        _ = readDone.wait(timeout: .now() + 5)
        if process.terminationReason == .uncaughtSignal {
            let signal = process.terminationStatus
            let name = String(cString: strsignal(signal))
            return ConformanceResult(check: check, status: .crashed, message: "the plugin crashed: signal \(signal) (\(name))")
        }
        let lastLine = String(decoding: collected.data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard let result = try? JSONDecoder().decode(ConformanceResult.self, from: Data(lastLine.utf8)) else {
            return ConformanceResult(check: check, status: .crashed,
                                     message: "the check process ended (status \(process.terminationStatus)) without a result: the plugin exited or corrupted it")
        }
        return result
    }
}
