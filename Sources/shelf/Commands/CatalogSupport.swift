import Foundation
import Glibc
import Host

/// The format tab --format names, checked: "all", "ebook(s)" or "audiobook(s)"; nil keeps the one chosen before.
func formatChoice(_ args: Arguments) throws -> String? {
    try args.choice("--format", ["all", "ebook", "audiobook", "ebooks", "audiobooks"])
}

/// --facet NAME=VALUE..., --available, --supported and --page, as the catalog session takes them.
func catalogRefinement(_ args: Arguments) throws -> CatalogRefinement {
    var refinement = CatalogRefinement(available: args.has("--available"), supported: args.has("--supported"))
    for facet in args.all("--facet") where !refinement.addFacet(facet) {
        throw CommandUsage.notAFacet(given: facet).error
    }
    refinement.page = try args.int("--page", in: 1...1000) ?? 1
    return refinement
}

/// How a command that only reads takes a title (book, download).
let readingNameHelp =
    "ID|TITLE is the identifier browse and catalog-search show, or the title; any unique part of "
    + "either will do, and a part that fits several titles lists the first few."

/// How a command that changes what the library holds takes a title (borrow, reserve, return, cancel-hold).
let changingNameHelp =
    "ID|TITLE is the identifier browse and catalog-search show, or the whole title. A part of "
    + "either that fits one title is asked about on a terminal (answer y) and refused elsewhere (exit 64), so that a "
    + "script never acts on the wrong book."

// MARK: Text

enum CatalogText {
    /// Two lines per entry: the title line, then format, availability, support and ID — all in words.
    static func entry(_ entry: CatalogEntry, openable: Set<String>, indent: String = "  ") -> String {
        var first = indent + entry.title
        if !entry.authors.isEmpty { first += " — " + entry.authors.prefix(3).joined(separator: ", ") }
        var facts = [entry.format.words]
        if entry.hasAcquisitions || entry.availability.state != .unknown { facts.append(entry.availability.words) }
        if !entry.isSupported(by: openable) { facts.append("not supported on this device") }
        return first + "\n" + indent + "  " + facts.joined(separator: " · ") + "\n" + indent + "  ID: " + entry.id
    }

    static func quoted(_ text: String) -> String { "“\(text)”" }
}

/// Reads one line from standard input (a password or token piped in by a script).
func readSecretLine(prompt: String?, echo: Bool = false) -> String? {
    if let prompt {
        Output.standardError(prompt, flush: true)
    }
    var saved = termios()
    let terminal = isatty(0) == 1 && !echo && tcgetattr(0, &saved) == 0
    if terminal {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &quiet)
    }
    defer {
        if terminal {
            tcsetattr(0, TCSANOW, &saved)
            Output.standardError("\n")
        }
    }
    guard let line = readLine(strippingNewline: true) else { return nil }
    return line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
}
