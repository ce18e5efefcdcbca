import ShelfValues
import ShelfCore
import Foundation
import Glibc

/// `shelf conformance --memcheck`: the plugin under valgrind, in the stand-in host (`shelf-plugin-host`, a small
/// C program: valgrind reads it, where it cannot read shelf's own Swift debug information), on every sample and
/// every foreign input. The first error valgrind reports fails the check, naming the input and the frames.
struct Memcheck {
    let plugin: String
    let samples: [String]
    let timeout: TimeInterval
    /// The Shelf's: valgrind is found on its PATH, the stand-in host by its SHELF_PLUGIN_HOST.
    let environment: [String: String]

    static let name = "memcheck"

    /// SHELF_PLUGIN_HOST, else shelf-plugin-host beside shelf, else on the PATH.
    static func standInHost(executable: String, environment: [String: String]) -> String? {
        if let given = environment["SHELF_PLUGIN_HOST"] { return given }
        let beside = ((executable as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
            "shelf-plugin-host")
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let path = String(folder) + "/shelf-plugin-host"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func run(executable: String, folder: String) -> ConformanceResult {
        guard let host = Self.standInHost(executable: executable, environment: environment) else {
            return ConformanceResult(
                check: Self.name, status: .failed,
                message:
                    "shelf-plugin-host was not found beside shelf or on the PATH: `make install` installs it (or set SHELF_PLUGIN_HOST)"
            )
        }
        var inputs = samples
        for foreign in ForeignInputs.all {
            let path = folder + "/" + foreign.name
            _ = FileManager.default.createFile(atPath: path, contents: Data(foreign.bytes))
            inputs.append(path)
        }
        for input in inputs {
            let log = folder + "/valgrind.log"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["valgrind", "--quiet", "--error-exitcode=99", "--log-file=" + log, host, plugin, input]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let finished = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in finished.signal() }
            do { try process.run() } catch {
                return ConformanceResult(
                    check: Self.name, status: .failed, message: "could not start valgrind (is it installed?): \(error)")
            }
            if finished.wait(timeout: .now() + timeout) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
                return ConformanceResult(
                    check: Self.name, status: .failed,
                    message:
                        "no answer within \(Int(timeout)) s on \((input as NSString).lastPathComponent) under valgrind")
            }
            if process.terminationStatus == 99 || process.terminationReason == .uncaughtSignal {
                // The failure is reported either way; valgrind's log only adds its first error.
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return ConformanceResult(
                    check: Self.name, status: .failed,
                    message: "valgrind, on \((input as NSString).lastPathComponent) (shelf-plugin-host PLUGIN FILE): "
                        + Self.firstError(text))
            }
        }
        return ConformanceResult(
            check: Self.name, status: .passed, message: "\(inputs.count) inputs under valgrind, no error")
    }

    /// The first error valgrind reports, with its first frames, one line.
    static func firstError(_ log: String) -> String {
        let lines = log.split(separator: "\n").map { line -> String in
            let text = String(line)
            guard text.hasPrefix("=="), let end = text.dropFirst(2).firstIndex(of: "=") else { return text }
            return String(text[text.index(end, offsetBy: 2)...]).trimmingCharacters(in: .whitespaces)
        }
        let error = lines.drop { $0.isEmpty }.prefix { !$0.isEmpty }
        return error.prefix(6).joined(separator: "; ")
    }
}
