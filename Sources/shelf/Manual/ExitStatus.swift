import Host

/// shelf's exit codes (sysexits.h), as `shelf --help` sums them up and shelf(1) explains them.
enum ExitStatus {
    struct Status {
        let code: Int32
        /// The words `shelf --help` gives it.
        let brief: String
        /// What the man page says.
        let meaning: String
    }

    static let all: [Status] = [
        Status(code: 0, brief: "done", meaning: "The command did what was asked."),
        Status(
            code: 1, brief: "checks failed",
            meaning: "Checks ran and some failed: `shelf conformance` found a plugin breaking the contract."),
        Status(
            code: ShelfError.Kind.usage.rawValue, brief: "usage",
            meaning:
                "The command line is wrong: an unknown command or option, a missing or extra argument, a value out of range, a BOOK that fits several books."
        ),
        Status(
            code: ShelfError.Kind.badData.rawValue, brief: "bad data",
            meaning:
                "A file or an answer is malformed or protected: a damaged book, a catalog that is not OPDS, a DRM-protected copy."
        ),
        Status(
            code: ShelfError.Kind.noInput.rawValue, brief: "no input",
            meaning: "A file, book, account or catalog entry named on the command line does not exist."),
        Status(
            code: ShelfError.Kind.unavailable.rawValue,
            brief: "unavailable (no plugin for this format, no copy to borrow)",
            meaning:
                "What was asked cannot be had: no installed plugin opens the format, no copy is free to borrow, a service is down."
        ),
        Status(
            code: ShelfError.Kind.software.rawValue, brief: "plugin fault",
            meaning: "A plugin misbehaved (broke the ABI contract, crashed in a check) or shelf met an internal error."),
        Status(
            code: ShelfError.Kind.ioError.rawValue, brief: "I/O error",
            meaning: "Reading or writing a file failed: a full disk, a folder shelf may not write."),
        Status(
            code: ShelfError.Kind.temporary.rawValue, brief: "try again later",
            meaning:
                "The network or a library did not answer in time, or another shelf holds a lock (a second `shelf watch`): trying again later may work."
        ),
        Status(
            code: ShelfError.Kind.permission.rawValue, brief: "permission (sign-in refused)",
            meaning: "The library refused the sign-in or the action: sign in again with `shelf login`."),
        Status(
            code: ShelfError.Kind.cancelled.rawValue, brief: "interrupted",
            meaning: "Stopped by Ctrl-C (SIGINT).")
    ]

    /// "0 done, 1 checks failed, 64 usage, …" for `shelf --help`, without the interrupt everyone knows.
    static var summary: String {
        all.filter { $0.code != ShelfError.Kind.cancelled.rawValue }.map { "\($0.code) \($0.brief)" }.joined(
            separator: ", ")
    }

    /// The summary as `shelf --help` ends: "Exit codes: 0 done, …", wrapped at 100 columns.
    static var helpText: String {
        var lines = [""]
        for word in ("Exit codes: " + summary + ".").split(separator: " ") {
            if lines[lines.count - 1].count + word.count + 1 > 100 { lines.append("") }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
        }
        return lines.joined(separator: "\n")
    }
}
