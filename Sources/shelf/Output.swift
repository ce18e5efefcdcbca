// glibc's `stdout` and `stderr` are C variables, which Swift 6 cannot prove unchanged; they are set before main
// and never reassigned, and POSIX stdio locks a stream inside each call, so using them from any thread is safe.
// Every write of the command line to the standard streams goes through this file, so only it needs this import.
// (Before Foundation, which would bring Glibc in without @preconcurrency.)
@preconcurrency import Glibc
import Foundation
import Host

/// Writing to stdout and stderr. JSON output is sorted and stable so scripts can diff it.
enum Output {
    // stdio rather than FileHandle: a closed pipe (`shelf ... | head`) is an error return here,
    // not a trap.
    static func line(_ text: String = "") {
        checked(fputs(text + "\n", stdout) != EOF)
    }

    static func raw(_ data: Data) {
        data.withUnsafeBytes { checked(fwrite($0.baseAddress, 1, $0.count, stdout) == $0.count) }
    }

    /// The first error writing to standard output (errno), kept until the command ends: a disk that fills under
    /// `shelf manifest BOOK > book.json` must not end in exit 0 with half a file.
    private static let writeError = WriteError()

    /// Unchecked Sendable: `code` is read and written under `lock` only.
    private final class WriteError: @unchecked Sendable {
        private let lock = NSLock()
        private var code: Int32?
        func keep(_ new: Int32) { lock.withLock { if code == nil { code = new } } }
        var first: Int32? { lock.withLock { code } }
    }

    private static func checked(_ written: Bool) {
        if !written { writeError.keep(errno) }
    }

    /// Ends a command: what is buffered goes out, and a write that failed on the way (a full disk, a device error)
    /// turns `status` into a failure that says so (74), since what the command printed is not all there. A reader
    /// that stopped reading (`shelf books | head`, EPIPE) is no failure: it had what it wanted.
    static func finish(_ status: Int32) -> Int32 {
        checked(fflush(stdout) == 0)
        guard let code = writeError.first, code != EPIPE else { return status }
        error(
            "standard output: \(String(cString: strerror(code))): what this command wrote there is incomplete\n"
                + "  Make room on the disk it goes to (or name another place), and run the command again.")
        return status == 0 ? ShelfError.Kind.ioError.rawValue : status
    }

    static func json<T: Encodable>(_ value: T) {
        line(ReadiumJSON.encode(value, pretty: true))
    }

    /// One JSON document on one line (JSON Lines), for a command that reports as it goes (`shelf listen --json`).
    static func jsonLine<T: Encodable>(_ value: T) {
        line(ReadiumJSON.encode(value))
    }

    static func error(_ text: String) {
        fputs("shelf: " + text + "\n", stderr)
    }

    /// Says `error` on standard error and gives the exit status it stands for (sysexits): the one way a command's
    /// error ends shelf, whether it reaches `main` or a command (`shelf listen`) says it as it happens.
    static func failure(_ error: Error) -> Int32 {
        guard let error = error as? ShelfError else {
            self.error("\(error)")
            return ShelfError.Kind.software.rawValue
        }
        self.error(error.description)
        return error.exitCode
    }

    /// `text` on standard error as it is: progress lines and redraws that end in place, not in a new line.
    static func standardError(_ text: String, flush: Bool = false) {
        fputs(text, stderr)
        if flush { fflush(stderr) }
    }

    /// `text` on standard output as it is (a screen redraw), flushed when `flush`.
    static func standardOutput(_ text: String, flush: Bool = false) {
        checked(fputs(text, stdout) != EOF)
        if flush { checked(fflush(stdout) == 0) }
    }

    /// Hands what is buffered for standard output to the terminal or pipe now.
    static func flush() { checked(fflush(stdout) == 0) }
}
