import Foundation
import Host

// Hidden commands for packaging and the shells: `shelf generate` writes the man pages and completion scripts from
// the command table, `shelf complete` gives those scripts the patron's book titles and account names.

let generateCommand = Command(
    name: "generate", summary: "write a man page or a shell's completion script from the command table",
    usage: "shelf generate shelf.1|shelf-plugin.7|bash|zsh|fish",
    details: """
        Prints shelf(1), shelf-plugin(7), or the completion script for bash, zsh or fish, each written from the same
        table `shelf help` reads, so that a new command or option appears in all of them. `make install` and
        `make deb` run it.
        """,
    positionals: 1...1, hidden: true
) { args, _ in
    let what = args.positionals[0]
    if let page = ManPages.page(what, commands: commands) {
        Output.raw(Data(page.utf8))
    } else if let script = CompletionScripts.script(for: what, rules: CompletionRules(commands)) {
        Output.raw(Data(script.utf8))
    } else {
        throw CommandUsage.generateTakes(allowed: ManPages.names + CompletionScripts.shells, given: what).error
    }
    return 0
}

let completeCommand = Command(
    name: "complete", summary: "book titles or account names, one a line, for shell completion",
    usage: "shelf complete books|accounts",
    details: """
        Prints the titles of the books on the shelf, or the names of the library accounts, one a line, for the
        completion scripts. It reads the library database only: it creates no folder and no database, loads no
        plugin, and prints nothing when shelf has no database yet.
        """,
    positionals: 1...1, hidden: true
) { args, context in
    let what = args.positionals[0]
    guard ["books", "accounts"].contains(what) else {
        throw CommandUsage.completeTakes(given: what).error
    }
    // One line each: a title with a line break in it would be two words to the shell.
    let text = try context.shelf.completionWords(books: what == "books").map { $0 + "\n" }.joined()
    Output.raw(Data(text.utf8))
    return 0
}
