import Foundation
import Host

/// One subcommand: its words for `help`, the options it accepts, and what it does.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let details: String
    var valueOptions: Set<String> = []
    var flagOptions: Set<String> = []
    let positionals: ClosedRange<Int>
    var hidden = false
    /// A command that serves patron actions until it is stopped (`serve`, `watch`) bounds each action's network
    /// waits by itself instead of holding the whole run to one command deadline.
    var runsUntilStopped = false
    /// For words that fit another command better (one word to `search`, which a patron means for the catalog): what
    /// to run instead, or nil.
    var otherCommand: (@Sendable ([String]) -> String?)? = nil
    let run: @Sendable (Arguments, Context) throws -> Int32
}

/// What every command gets: the parsed global options and the host, whose sessions it calls.
final class Context {
    let json: Bool
    let shelf: Shelf
    private var openedLibrary: LibrarySession?

    init(json: Bool, pluginPaths: [String]) {
        self.json = json
        self.shelf = Shelf(pluginPaths: pluginPaths)
    }

    /// The patron's libraries, opened on first use and shared by a command that runs another one.
    func library() throws -> LibrarySession {
        if let openedLibrary { return openedLibrary }
        let library = try shelf.library()
        openedLibrary = library
        return library
    }
}

extension Command {
    /// The arguments this command takes, as its usage names them ("FILE QUERY"), when the usage has one form.
    var argumentNames: [String] {
        guard !usage.contains(" | shelf "), !usage.contains("\n") else { return [] }
        return usage.split(separator: " ").dropFirst(2).prefix { !$0.hasPrefix("[") && !$0.hasPrefix("-") }.map(
            String.init)
    }

    /// Too few or too many words: which, what they were, and how to write the command so it runs. The usual cause
    /// of too many is a title or query of several words typed without quotes, so the words past the last argument
    /// are offered joined in quotes.
    func argumentCountError(_ given: [String]) -> ShelfError {
        let range = positionals
        let names =
            range.upperBound > 0 && argumentNames.count == range.upperBound
            ? " (" + argumentNames.joined(separator: " ") + ")" : ""
        let takes =
            range.lowerBound == range.upperBound ? "\(range.upperBound)" : "\(range.lowerBound) to \(range.upperBound)"
        let got = given.isEmpty ? "none" : "\(given.count): " + given.map { "“\($0)”" }.joined(separator: " ")
        var hints: [String] = []
        if let other = otherCommand?(given) { hints.append(other) }
        if given.count > range.upperBound, range.upperBound > 0 {
            let kept = given.prefix(range.upperBound - 1).map(ShellWords.quoted)
            let joined = ShellWords.quoted(given.dropFirst(range.upperBound - 1).joined(separator: " "))
            hints.append(
                "Words that belong together go in quotes: shelf \(name) " + (kept + [joined]).joined(separator: " "))
        }
        hints.append("Usage: \(usage)")
        let what = given.count > range.upperBound ? "too many arguments" : "missing arguments"
        return ShelfError(
            .usage, "\(what): shelf \(name) takes \(range.upperBound == 0 ? "none" : takes)\(names), given \(got)",
            hint: hints.joined(separator: "\n  "))
    }
}

/// A word as a patron would type it into a POSIX shell: as it is when the shell leaves it alone, else in double
/// quotes, as shelf's other messages quote a title ("Read it with: shelf read "…"").
enum ShellWords {
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                CharacterSet.alphanumerics.contains(scalar) || "-_./:=@%+,".unicodeScalars.contains(scalar)
            }
        if plain { return word }
        return "\""
            + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "$", with: "\\$").replacingOccurrences(of: "`", with: "\\`") + "\""
    }
}
