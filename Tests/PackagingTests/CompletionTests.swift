import Foundation
import TestSupport
import XCTest

/// The completion scripts `shelf generate bash|zsh|fish` writes, loaded in each shell and asked to complete a
/// command, an option's value, a book title and an account name on a shelf with two books and an account.
final class CompletionTests: XCTestCase {
    var shelf: ShelfProcess!

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        try shelf.withSampleShelf()
    }
    override func tearDown() { shelf.cleanUp() }

    private func script(_ shell: String) throws -> URL {
        let result = try shelf.run(["generate", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = shelf.home.appendingPathComponent("shelf.\(shell)")
        try Data(result.stdout.utf8).write(to: file)
        return file
    }

    /// The shell's environment: the test shelf's SHELF_HOME, and this build's shelf first on PATH.
    private var environment: [String: String] {
        var environment = shelf.environment
        environment["PATH"] = ShelfProcess.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// Runs `body` in the shell after loading the script; each `ask` prints `>>> WORDS` and then the candidates.
    private func answers(_ output: String) -> [String: [String]] {
        var answers: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(">>> ") { current = String(line.dropFirst(4)); answers[current!] = []; continue }
            if let current, !line.isEmpty { answers[current]!.append(line) }
        }
        return answers
    }

    private let questions = [
        "shelf rea", "shelf render x.epub --theme ", "shelf read The", "shelf read the",
        "shelf browse --account ", "shelf account remove ", "shelf browse --format audio", "shelf help li"
    ]

    private func check(_ answers: [String: [String]], quoted: Bool, shell: String) {
        func offered(_ question: String) -> [String] { answers[question] ?? [] }
        XCTAssertEqual(offered("shelf rea"), ["read"], "\(shell) completes a command")
        XCTAssertEqual(
            offered("shelf render x.epub --theme "), ["day", "night", "sepia"], "\(shell) completes an option's value")
        let title = quoted ? "The\\ Lighthouse\\ Keeper" : "The Lighthouse Keeper"
        XCTAssertEqual(offered("shelf read The"), [title], "\(shell) completes a book title from the shelf")
        XCTAssertEqual(
            offered("shelf browse --account "), ["shelf-sample-library"], "\(shell) completes an account name")
        XCTAssertEqual(
            offered("shelf account remove "), ["shelf-sample-library"], "\(shell) completes an account operand")
        XCTAssertEqual(offered("shelf browse --format audio"), ["audiobook"], "\(shell) completes --format")
        XCTAssertEqual(offered("shelf help li").sorted(), ["listen", "lists"], "\(shell) completes help's command")
    }

    func testBashCompletesCommandsValuesTitlesAndAccounts() throws {
        let bash = try Tool("bash", package: "bash")
        let file = try script("bash")
        var body = "source \(file.path)\n"
        // COMP_WORDS as bash's readline would split each line.
        body +=
            "ask() { echo \">>> $1\"; read -ra COMP_WORDS <<< \"$1\"; [[ $1 == *' ' ]] && COMP_WORDS+=(''); "
            + "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _shelf; printf '%s\\n' \"${COMPREPLY[@]}\"; }\n"
        body += "complete -p shelf\n"
        for question in questions { body += "ask '\(question)'\n" }
        let result = try bash.run(["--norc", "--noprofile", "-c", body], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.hasPrefix("complete -F _shelf shelf"), "the script registers itself: \(result.stdout)")
        var answers = answers(result.stdout)
        // bash matches a title without regard to case.
        XCTAssertEqual(answers["shelf read the"], ["The\\ Lighthouse\\ Keeper"])
        answers["shelf read the"] = nil
        check(answers, quoted: true, shell: "bash")
    }

    func testZshCompletesCommandsValuesTitlesAndAccounts() throws {
        let zsh = try Tool("zsh", package: "zsh")
        let file = try script("zsh")
        // compinit loads, then the script is autoloaded from fpath as an installed _shelf is; compadd is watched
        // (it is the builtin only inside a real completion widget) and filters by the word as zsh would.
        let folder = shelf.home.appendingPathComponent("zsh-functions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("_shelf"))
        var body =
            "fpath=(\(folder.path) $fpath); autoload -Uz compinit && compinit -u -d \(shelf.home.path)/zcompdump\n"
        body += "[[ ${_comps[shelf]} == _shelf ]] || { print 'compinit did not register _shelf'; exit 1 }\n"
        body +=
            "compadd() { local -a found; while (( $# )) && [[ $1 != -- ]]; do [[ $1 == -d ]] && shift; shift; done; shift; "
            + "for w in \"$@\"; do [[ $w == ${PREFIX}* ]] && print -r -- $w; done }\n"
        body +=
            "ask() { print -r -- \">>> $1\"; words=(${(z)1}); [[ $1 == *' ' ]] && words+=(''); CURRENT=${#words}; "
            + "PREFIX=${words[CURRENT]}; _shelf }\n"
        for question in questions where question != "shelf read the" { body += "ask '\(question)'\n" }
        let result = try zsh.run(["-f", "-c", body + "true\n"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        check(answers(result.stdout), quoted: false, shell: "zsh")
    }

    func testFishCompletesCommandsValuesTitlesAndAccounts() throws {
        let fish = try Tool("fish", package: "fish")
        let file = try script("fish")
        var body = "source \(file.path)\n"
        for question in questions where question != "shelf read the" {
            body += "echo '>>> \(question)'; complete -C '\(question)' | string replace -r '\\t.*' ''; true\n"
        }
        let result = try fish.run(["--no-config", "-c", body], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        check(answers(result.stdout), quoted: false, shell: "fish")
    }

    /// Every option a command's usage names is offered after `--`: the scripts read the table, not a copy.
    func testEveryOptionInEveryUsageIsOffered() throws {
        let fish = try Tool("fish", package: "fish")
        let file = try script("fish")
        var body = "source \(file.path)\n"
        var expected: [String: Set<String>] = [:]
        for command in try shelf.listedCommands() {
            let help = try shelf.run(["help", command])
            let usage = help.stdout.components(separatedBy: "\n\n").first ?? ""
            expected["shelf \(command) --"] = Set(
                usage.split(whereSeparator: { " []|()\n".contains($0) })
                    .filter { $0.hasPrefix("--") }.map {
                        String($0.split(separator: "=")[0]).replacingOccurrences(of: "...", with: "")
                    })
            body +=
                "echo '>>> shelf \(command) --'; complete -C 'shelf \(command) --' | string replace -r '\\t.*' ''; true\n"
        }
        let result = try fish.run(["--no-config", "-c", body], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let answers = answers(result.stdout)
        XCTAssertGreaterThan(expected.count, 30)
        for (question, options) in expected {
            let missing = options.subtracting(answers[question] ?? [])
            XCTAssertTrue(missing.isEmpty, "`\(question)` does not offer \(missing.sorted())")
        }
    }

    func testCompleteCreatesNothingOnAFreshShelf() throws {
        let fresh = try ShelfProcess()
        defer { fresh.cleanUp() }
        for what in ["books", "accounts"] {
            let result = try fresh.run(["complete", what])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fresh.home.path), [], "no folder or database made")
    }
}
