import Foundation
import Glibc
import Host

let accountCommand = Command(
    name: "account", summary: "add, list, remove or choose library accounts",
    usage: "shelf account add URL [--name NAME] | list | remove NAME | use NAME [--json]",
    details: """
        add URL     reads the library's catalog root or authentication document (a local file or file:// URL
                    works too) and remembers the library; the first account becomes the one commands use.
        list        shows each account, how to sign in, and "Sign up for a library card" where the library offers it.
        remove NAME forgets the account, its loans, holds and stored credentials.
        use NAME    makes NAME the account other commands use without --account.
        """,
    valueOptions: ["--name"], positionals: 1...2
) { args, context in
    let library = try context.library()
    let action = args.positionals[0]
    let operand = args.positionals.count > 1 ? args.positionals[1] : nil
    switch action {
    case "add":
        guard let operand else {
            throw CommandUsage.accountAddNeedsAddress.error
        }
        let (account, json) = try library.addAccount(operand, name: args.value("--name"))
        if context.json { Output.json(json); return 0 }
        Output.line(AccountOutcome.added(account, inUse: json.isDefault).words(for: .terminal).line)
        Output.line("Catalog: \(account.catalogURL)")
        if !json.signIn.isEmpty {
            Output.line("Sign in: \(json.signIn.joined(separator: "; ")) — `shelf login \(account.id)`")
        }
        if let signUp = json.signUp { Output.line("Sign up for a library card: \(signUp)") }
        return 0
    case "list":
        let all = try library.accountDocuments()
        if context.json { Output.json(all); return 0 }
        if all.isEmpty { Output.line(Invitation.noLibraryYet.words(for: .terminal).line); return 0 }
        for account in all {
            Output.line("\(account.id)\(account.isDefault ? " (in use)" : ""): \(account.title)")
            Output.line("  Catalog: \(account.catalog)")
            let state =
                account.signInRefused
                ? "Sign-in refused"
                : (account.signedIn ? "Signed in" : (account.signIn.isEmpty ? "No sign-in needed" : "Not signed in"))
            Output.line(
                "  \(state)"
                    + (account.signIn.isEmpty ? "" : " (\(account.signIn.joined(separator: "; ")))"))
            if let signUp = account.signUp, !account.signedIn { Output.line("  Sign up for a library card: \(signUp)") }
        }
        return 0
    case "remove":
        guard let operand else { throw CommandUsage.accountNeedsName(action: "remove").error }
        // Counted before they go with the account: the patron is told that the library still lends them.
        let held = (
            (try? library.loans(account: operand).count) ?? 0, (try? library.holds(account: operand).count) ?? 0
        )
        let account = try library.removeAccount(operand)
        if context.json {
            Output.json(AccountRemovedJSON(account))
        } else {
            let words = AccountOutcome.removed(account, loans: held.0, holds: held.1).words(for: .terminal)
            Output.line(words.sentence)
            if let hint = words.hint { Output.line(hint) }
        }
        return 0
    case "use":
        guard let operand else { throw CommandUsage.accountNeedsName(action: "use").error }
        let account = try library.useAccount(operand)
        if context.json {
            Output.json(AccountInUseJSON(account))
        } else {
            Output.line(AccountOutcome.using(account).words(for: .terminal).line)
        }
        return 0
    default:
        throw CommandUsage.noAccountAction(action).error
    }
}

let loginCommand = Command(
    name: "login", summary: "sign in to a library",
    usage: "shelf login [ACCOUNT] [--username CARD --password-stdin | --token-stdin] [--json]",
    details: """
        Card-and-PIN libraries: on a terminal shelf asks for both (the PIN is not echoed); scripts give
        --username and pipe the PIN with --password-stdin. A password is never accepted in the arguments.
        Libraries that sign in through a web page: shelf prints the address to open, then takes the address
        you are sent to (or the token) on standard input. Credentials go to the config folder with mode 0600
        and are never printed.
        """,
    valueOptions: ["--username", "--account", "--password"], flagOptions: ["--password-stdin", "--token-stdin"],
    positionals: 0...1
) { args, context in
    if args.value("--password") != nil {
        throw CommandUsage.passwordInArguments.error
    }
    let library = try context.library()
    let account = try library.account(args.positionals.first ?? args.value("--account"))
    let signIn = SignIn(library: library, account: account)
    guard let flow = try signIn.flow(), let kind = flow.kind else {
        if context.json {
            Output.json(SignInStateJSON.notNeeded(account))
        } else {
            Output.line(AccountOutcome.noSignInNeeded(account).words(for: .terminal).line)
        }
        return 0
    }
    if kind.usesBrowser {
        guard let address = signIn.browserAddress(flow) else {
            throw CommandLookup.webSignInWithoutAddress(account: account.id).error
        }
        Output.standardError("Open this address in a web browser and sign in:\n  \(address)\n")
        Output.standardError(
            "Then paste the address the library sends you to (it holds access_token), or the token itself:\n")
        guard let pasted = readSecretLine(prompt: nil, echo: true) else {
            throw LoginRefusal.noToken.error
        }
        try signIn.signIn(flow: flow, pasted: pasted)
    } else {
        let tty = isatty(0) == 1
        var username = args.value("--username")
        if username == nil {
            guard tty, !args.has("--password-stdin") else {
                throw LoginRefusal.noUsername(label: flow.loginLabel).error
            }
            Output.standardError("\(flow.loginLabel): ")
            username = readLine()?.trimmingCharacters(in: .whitespaces)
        }
        let password: String?
        if args.has("--password-stdin") {
            password = readSecretLine(prompt: nil, echo: true)
        } else if tty {
            password = readSecretLine(prompt: "\(flow.passwordLabel): ")
        } else {
            throw CommandUsage.noTerminalForPassword(label: flow.passwordLabel).error
        }
        guard let username, !username.isEmpty, let password else {
            throw CommandUsage.loginAndPasswordNeeded(login: flow.loginLabel, password: flow.passwordLabel).error
        }
        try signIn.signIn(flow: flow, username: username, password: password)
    }
    if context.json {
        Output.json(SignInStateJSON.signedIn(account))
    } else {
        Output.line(AccountOutcome.signedIn(account, keptIn: signIn.keptIn?.words).words(for: .terminal).line)
    }
    return 0
}

let logoutCommand = Command(
    name: "logout", summary: "forget the sign-in for a library",
    usage: "shelf logout [ACCOUNT] [--json]",
    details: "Removes the stored card number, PIN and token of the account. Loans and holds stay listed.",
    valueOptions: ["--account"], positionals: 0...1
) { args, context in
    let library = try context.library()
    let account = try library.account(args.positionals.first ?? args.value("--account"))
    try SignIn(library: library, account: account).signOut()
    if context.json {
        Output.json(SignInStateJSON.signedOut(account))
    } else {
        Output.line(AccountOutcome.signedOut(account).words(for: .terminal).line)
    }
    return 0
}
