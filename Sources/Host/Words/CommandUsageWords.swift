// What the command line says when its arguments are not what a command takes: an option without its value, a value
// out of its range, two options that say the same thing, a subcommand that is none. Each is a usage error (64) with
// the words a person at a terminal reads after "shelf: "; the browser app has none of these (it takes no arguments).

/// A command line a command cannot take, by what was wrong with it.
public enum CommandUsage: Sendable, Equatable {
    // The parser's: every command's options.
    case needsValue(option: String)
    case unknownOption(String, global: Bool)
    case notAWholeNumber(option: String, range: ClosedRange<Int>, given: String)
    case notOneOf(option: String, allowed: [String], given: String)
    case noCommand(String)
    case pluginPathNeedsValue
    // Options whose values have a form of their own.
    case fromAndChapter
    case notATime(given: String)
    case noSuchChapter(count: Int, given: String, book: String)
    case notASpeed(given: String)
    case notASleep(given: String)
    case notAVolume(given: String)
    case notAStep
    case notAnInterval(given: String)
    case onceAndCycles
    case pageAndLocator
    case notALocator
    case notAFontScale(given: String, orDefault: Bool)
    case onlyOneOf([String])
    case hitWithoutSearch
    case searchWithoutWords
    /// `shelf catalog-search` with no words: no library is asked (some answer everything, some an error page).
    case catalogSearchWithoutWords
    case notABookmarkNumber(option: String, given: String)
    case chapterPastTheEnd(chapter: Int, items: Int, book: String)
    case positionPastTheEnd(position: Int, positions: Int, book: String)
    case needsOutputPath(command: String)
    case notAnAssignment(given: String)
    /// `--facet` without NAME=VALUE (the browser's `facet=` is `RequestProblem.notAFacet`).
    case notAFacet(given: String)
    case noSecret(key: String)
    case notAManifestAddress(given: String)
    // Subcommands and their operands.
    case generateTakes(allowed: [String], given: String)
    case completeTakes(given: String)
    case accountAddNeedsAddress
    case accountNeedsName(action: String)
    case noAccountAction(String)
    case annotationsTakesSync(given: String)
    case bookmarkTakes(given: String)
    case listsNeedsService(subcommand: String)
    case noListsSubcommand(String)
    case conformanceNeedsPlugin
    case noCheck(name: String, known: [String])
    // Signing in from a terminal.
    case passwordInArguments
    case noTerminalForPassword(label: String)
    case loginAndPasswordNeeded(login: String, password: String)

    /// The usage error the command throws.
    public var error: ShelfError {
        let (message, hint) = words
        return ShelfError(.usage, message, subject: subject, next: hint.map { NextStep(terminal: $0, browser: nil) })
    }

    /// The file or address the error is about, when it names one.
    var subject: String? {
        switch self {
        case .chapterPastTheEnd(_, _, let book), .positionPastTheEnd(_, _, let book): return book
        case .notAManifestAddress(let given): return given
        default: return nil
        }
    }

    /// The clause after "shelf: ", and the terminal's hint.
    var words: (String, String?) {
        switch self {
        case .needsValue(let option): return ("\(option) needs a value", nil)
        case .unknownOption(let option, let global):
            return ("unknown option \(option)", global ? "`shelf --help` lists the commands and options." : nil)
        case .notAWholeNumber(let option, let range, let given):
            return (
                "\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(given)\"", nil
            )
        case .notOneOf(let option, let allowed, let given):
            return ("\(option) takes one of \(allowed.joined(separator: ", ")), not \"\(given)\"", nil)
        case .noCommand(let name): return ("no command \"\(name)\"", "`shelf --help` lists the commands.")
        case .pluginPathNeedsValue: return ("--plugin-path needs a directory or .so file", nil)
        case .fromAndChapter: return ("--from and --chapter cannot be used together", nil)
        case .notATime(let given): return ("--from takes a time such as 90, 1:30 or 1:02:03, not \"\(given)\"", nil)
        case .noSuchChapter(let count, let given, let book):
            return (
                "--chapter takes a number from 1 to \(count), not \"\(given)\"",
                "`shelf toc \(book)` lists the chapters."
            )
        case .notASpeed(let given):
            return ("--speed takes a number from 0.5 to 3.0 (in steps of 0.05), not \"\(given)\"", nil)
        case .notASleep(let given): return ("--sleep takes minutes (e.g. 20) or \"chapter\", not \"\(given)\"", nil)
        case .notAVolume(let given): return ("--volume takes a percentage from 0 to 200, not \"\(given)\"", nil)
        case .notAStep: return ("--step takes seconds from 1 to 3600", nil)
        case .notAnInterval(let given):
            return ("--interval takes a duration such as 30s, 15m, 2h or 1d, not \"\(given)\"", nil)
        case .onceAndCycles: return ("--once and --cycles say the same thing twice: give one", nil)
        case .pageAndLocator: return ("give --page or --locator, not both", nil)
        case .notALocator: return ("--locator is not a Readium Locator (JSON with at least \"href\")", nil)
        case .notAFontScale(let given, let orDefault):
            return ("--font-scale takes a percentage\(orDefault ? " (or default)" : ""), not \"\(given)\"", nil)
        case .onlyOneOf(let options): return ("give only one of \(listed(options))", nil)
        case .hitWithoutSearch: return ("--hit goes with --search QUERY", nil)
        case .searchWithoutWords: return ("--search needs some words", nil)
        case .catalogSearchWithoutWords:
            return ("catalog-search needs words to look for", "To see every title, browse: `shelf browse`.")
        case .notABookmarkNumber(let option, let given):
            return ("\(option) takes a bookmark number, not \"\(given)\"", nil)
        case .chapterPastTheEnd(let chapter, let items, _):
            return (
                "--chapter \(chapter) is past the end: this book has \(Plural.count(items, "reading-order item"))", nil
            )
        case .positionPastTheEnd(let position, let positions, _):
            return ("--position \(position) is past the end: this book has \(Plural.count(positions, "position"))", nil)
        case .needsOutputPath(let command): return ("\(command) needs -o PATH", nil)
        case .notAnAssignment(let given): return ("--set takes KEY=VALUE, not \"\(given)\"", nil)
        case .notAFacet(let given):
            return ("--facet takes NAME=VALUE, not \"\(given)\"", "For example --facet \"Sort by=Title\".")
        case .noSecret(let key): return ("no value for the secret \(key) on standard input", nil)
        case .notAManifestAddress: return ("fetch takes the http(s) URL of an audiobook manifest", nil)
        case .generateTakes(let allowed, let given):
            return ("shelf generate writes one of \(allowed.joined(separator: ", ")), not \"\(given)\"", nil)
        case .completeTakes(let given): return ("shelf complete lists books or accounts, not \"\(given)\"", nil)
        case .accountAddNeedsAddress: return ("account add needs the library's address", "shelf account add URL")
        case .accountNeedsName(let action): return ("account \(action) needs the account's name", nil)
        case .noAccountAction(let action):
            return ("no account action \"\(action)\"", "Usage: shelf account add URL | list | remove NAME | use NAME")
        case .annotationsTakesSync(let given):
            return ("annotations takes sync, not \"\(given)\"", "Usage: shelf annotations sync [BOOK]")
        case .bookmarkTakes(let given):
            return (
                "bookmark takes add or remove, not \"\(given)\"",
                "Usage: shelf bookmark add BOOK [--page N] | shelf bookmark remove ID"
            )
        case .listsNeedsService(let subcommand):
            return (
                "lists \(subcommand) needs a SERVICE\(subcommand == "connect" ? " (goodreads, google-books)" : "")", nil
            )
        case .noListsSubcommand(let sub):
            return ("no lists subcommand \"\(sub)\"", "connect, pull, show, push, services or disconnect.")
        case .conformanceNeedsPlugin:
            return ("name the plugin library to check: shelf conformance PLUGIN.so (or --list for the checks)", nil)
        case .noCheck(let name, let known):
            return ("no check named \(name): the checks are \(known.joined(separator: ", "))", nil)
        case .passwordInArguments:
            return (
                "a password in the arguments would be visible to other users and kept in shell history",
                "Pipe it instead: echo PIN | shelf login --username CARD --password-stdin"
            )
        case .noTerminalForPassword(let label):
            return (
                "no terminal to ask for the \(label) on",
                "Pipe it: echo PIN | shelf login --username CARD --password-stdin"
            )
        case .loginAndPasswordNeeded(let login, let password):
            return ("both the \(login.lowercased()) and the \(password) are needed", nil)
        }
    }
}

/// "--chapter, --position and --locator".
private func listed(_ items: [String]) -> String {
    guard let last = items.last, items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
}
