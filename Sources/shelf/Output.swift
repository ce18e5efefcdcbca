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
        fputs(text + "\n", stdout)
    }

    static func raw(_ data: Data) {
        data.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    static func json<T: Encodable>(_ value: T) {
        line(ReadiumJSON.encode(value, pretty: true))
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
        fputs(text, stdout)
        if flush { fflush(stdout) }
    }

    /// Hands what is buffered for standard output to the terminal or pipe now.
    static func flush() { fflush(stdout) }
}
