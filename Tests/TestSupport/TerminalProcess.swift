import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `shelf` with its stderr on a pseudo-terminal (stdout stays a pipe), to see what a person at a
/// terminal sees there.
public enum TerminalProcess {
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// `outputOnTerminal`: stdout goes to the terminal too (what `shelf read` shows a person), and `stderr` holds
    /// everything the terminal showed.
    /// `input`: typed at the terminal (stdin is the terminal too), as a person answers a question.
    public static func run(
        _ arguments: [String], environment: [String: String], timeout: TimeInterval = 60,
        outputOnTerminal: Bool = false, input: String? = nil
    ) throws -> Result {
        let (master, slave) = try PseudoTerminal.open()
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = outputOnTerminal ? FileHandle(fileDescriptor: slave, closeOnDealloc: false) : out
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput =
            input == nil ? FileHandle.nullDevice : FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        try process.run()
        close(slave)
        if let input {
            // The terminal keeps the line until shelf reads it.
            let bytes = Array(input.utf8)
            _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
        }
        final class Box: @unchecked Sendable { var out = Data(), err = Data() }
        let box = Box()
        let group = DispatchGroup()
        // The pipe went unused (stdout is the terminal): its end is closed here, or reading it would never end.
        if outputOnTerminal { try? out.fileHandleForWriting.close() }
        DispatchQueue.global().async(group: group) { box.out = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the last writer closed the terminal
                box.err.append(contentsOf: buffer[..<count])
            }
        }
        process.waitUntilExit()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            close(master)
            throw NSError(
                domain: "TerminalProcess", code: 3,
                userInfo: [NSLocalizedDescriptionKey: "shelf \(arguments) did not finish"])
        }
        close(master)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: box.out, as: UTF8.self),
            stderr: String(decoding: box.err, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }
}
