import Foundation
import Glibc
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

    /// Writes a file atomically: a reader never sees half of it.
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ShelfError(.ioError, "cannot write the file (\(error.localizedDescription))", subject: path,
                             hint: "Check that the folder exists and that you may write there.")
        }
    }
}
