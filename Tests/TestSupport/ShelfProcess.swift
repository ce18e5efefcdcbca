import Foundation

/// Runs the built `shelf` executable as a user would, with a home of its own, and captures
/// its output and exit code. The executable and bundled plugins sit beside the test bundle.
public struct ShelfProcess {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public var stdoutData: Data { Data(stdout.utf8) }

        public func json() throws -> Any { try JSONSerialization.jsonObject(with: stdoutData) }
    }

    /// The folder holding `shelf` and the `libshelf-*.so` plugins of this build.
    public static var buildDirectory: URL {
        // The test runner (shelfPackageTests.xctest) is built into the same folder as the products.
        let runner =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent()
    }

    /// The `shelf` the tests run: this build's, or SHELF_TEST_EXECUTABLE (another build, e.g. main's, to see a new
    /// test fail before its fix; its plugins must sit beside it).
    public static var executable: URL {
        if let other = ProcessInfo.processInfo.environment["SHELF_TEST_EXECUTABLE"], !other.isEmpty {
            return URL(fileURLWithPath: other)
        }
        return buildDirectory.appendingPathComponent("shelf")
    }

    /// The checkout's root, found from this source file.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    public let home: URL
    public var environment: [String: String]

    /// A fresh SHELF_HOME in a temporary folder; no plugin path of the caller leaks in.
    public init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env["SHELF_HOME"] = home.path
        env["HOME"] = home.path
        env["SHELF_PLUGIN_PATH"] = nil
        env["NO_COLOR"] = "1"
        environment = env
    }

    public func cleanUp() { try? FileManager.default.removeItem(at: home) }

    @discardableResult
    public func run(_ arguments: [String], stdin: Data? = nil, timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        // Read both pipes while the process runs so a large output cannot block it.
        final class Box: @unchecked Sendable { var out = Data(), err = Data() }
        let box = Box()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { box.out = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { box.err = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw NSError(
                domain: "ShelfProcess", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "shelf \(arguments) did not finish in \(timeout) s"])
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: box.out, as: UTF8.self),
            stderr: String(decoding: box.err, as: UTF8.self))
    }
}

/// Where the shared corpus is, if this checkout has it beside it.
public enum Corpus {
    public static var root: URL? {
        let url = ShelfProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// Compiles C sources into a shared library with the system compiler, as a third party would.
public enum CCompiler {
    static let pluginAPI = ShelfProcess.packageRoot.appendingPathComponent("Sources/PluginAPI")

    /// The plugin headers, and the folder of libshelf-plugin's header (shelf/helper.h).
    public static let pluginIncludes = [
        pluginAPI.appendingPathComponent("include"), pluginAPI.appendingPathComponent("lib/include")
    ]

    /// libshelf-plugin's sources: a plugin that uses the helper library compiles them in, as linking
    /// the static library would, hidden like the rest of the plugin.
    public static var helperLibrarySources: [URL] {
        let lib = pluginAPI.appendingPathComponent("lib")
        return ((try? FileManager.default.contentsOfDirectory(at: lib, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "c" }.sorted { $0.path < $1.path }
    }

    /// An example plugin of Examples/ (every .c file of its folder but its own test programs) on the helper library.
    public static func examplePlugin(_ name: String, output: URL, except: [String] = ["check.c"]) throws {
        let folder = ShelfProcess.packageRoot.appendingPathComponent("Examples/\(name)")
        let sources = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "c" && !except.contains($0.lastPathComponent) }
        try sharedLibrary(sources: sources + helperLibrarySources, output: output, includes: pluginIncludes + [folder])
    }

    public static func sharedLibrary(sources: [URL], output: URL, includes: [URL] = [], flags: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["cc", "-std=c99", "-Wall", "-Werror", "-pedantic", "-fPIC", "-shared", "-fvisibility=hidden", "-O1"]
            + includes.map { "-I" + $0.path } + flags + sources.map(\.path) + ["-o", output.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(
                domain: "CCompiler", code: Int(process.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "cc failed: " + String(decoding: message, as: UTF8.self)])
        }
    }
}
