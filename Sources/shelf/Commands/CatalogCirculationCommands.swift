import Foundation
import Glibc
import Host

/// What every command on one catalog entry starts from: the catalog, the account's circulation (`--account`),
/// and the entry the command's ID names; and how each of them reports the outcome.
struct CirculationCall {
    let context: Context
    let library: LibrarySession
    let circulation: Circulation
    let entry: CatalogEntry

    /// `changing`: the words the command asks a person at a terminal to confirm a title with ("Borrow"), for a command
    /// that changes what the library holds; nil for one that only reads.
    /// `givingBack`: a return or a cancel, which acts at the account that has the loan or hold.
    init(
        _ args: Arguments, _ context: Context, changing: (command: String, verb: String)? = nil,
        givingBack: CirculationMismatch.Asked? = nil
    ) throws {
        self.context = context
        library = try context.library()
        if let givingBack {
            circulation = try library.circulation(
                account: args.value("--account"), givingBack: args.positionals[0], asked: givingBack)
        } else {
            circulation = try library.circulation(account: args.value("--account"))
        }
        var naming = Circulation.Naming.reading
        if let changing {
            naming = .changing(command: changing.command, confirm: confirmOnTerminal(changing.verb))
        }
        entry = try circulation.entry(args.positionals[0], naming: naming)
    }

    /// Says what the library did (the words are the host's, `CirculationResult`) and gives the exit status: 69 when
    /// the library did not do what was asked.
    func report(_ outcome: CirculationResult) -> Int32 {
        if context.json {
            Output.json(
                CirculationJSON(
                    outcome, face: .terminal, openable: library.openable, account: circulation.accountToName))
        } else {
            Output.line(outcome.words(for: .terminal, account: circulation.accountToName).line)
        }
        return outcome.refused ? ShelfError.Kind.unavailable.rawValue : 0
    }
}

/// Asks a person at a terminal whether a title named by part of it is the one meant ("Borrow “…” (eBook,
/// urn:…)? [y/N]"); nil where no one can answer (stdin or stderr not a terminal).
private func confirmOnTerminal(_ verb: String) -> ((CatalogEntry) -> Bool)? {
    guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return nil }
    return { entry in
        Output.standardError(
            "\(verb) \(CatalogText.quoted(entry.title)) (\(entry.format.words), \(entry.id))? [y/N] ", flush: true)
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }
}

let borrowCommand = Command(
    name: "borrow", summary: "borrow a title (never places a hold)",
    usage: "shelf borrow ID|TITLE [--account NAME] [--json]",
    details: "Borrows the title if a copy is free. If none is, nothing is requested: shelf says so and offers "
        + "`shelf reserve ID`. Exit 69 when no copy is free. " + changingNameHelp,
    valueOptions: ["--account"], positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context, changing: ("borrow", "Borrow"))
    return call.report(.borrowed(try call.circulation.borrow(call.entry)))
}

let reserveCommand = Command(
    name: "reserve", summary: "place a hold on a title (or a physical copy at a branch)",
    usage: "shelf reserve ID|TITLE [--branch NAME] [--account NAME] [--json]",
    details: "Places a hold when no copy is free; with --branch, a hold on a physical copy at that branch "
        + "(`shelf book ID` lists them). If a copy is free now, nothing is reserved: borrow it instead. "
        + changingNameHelp,
    valueOptions: ["--account", "--branch"], positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context, changing: ("reserve", "Reserve"))
    return call.report(.reserved(try call.circulation.reserve(call.entry, branch: args.value("--branch"))))
}

/// A command that gives something back through the library's revoke link: a loan, a hold.
private func revokeCommand(
    name: String, summary: String, details: String, verb: String,
    asked: CirculationMismatch.Asked,
    revoke: @escaping @Sendable (Circulation, CatalogEntry) throws -> CirculationResult
) -> Command {
    Command(
        name: name, summary: summary, usage: "shelf \(name) ID|TITLE [--account NAME] [--json]",
        details: details + " " + changingNameHelp, valueOptions: ["--account"], positionals: 1...1
    ) { args, context in
        let call = try CirculationCall(args, context, changing: (name, verb), givingBack: asked)
        return call.report(try revoke(call.circulation, call.entry))
    }
}

let returnCommand = revokeCommand(
    name: "return", summary: "return a loan early",
    details: "Returns the loan through the loan's own revoke link, at the library that lent it, and removes it from My "
        + "Books. A title on hold, or neither on loan nor on hold, is refused and nothing is sent (exit 64).",
    verb: "Return", asked: .returnLoan,
    revoke: {
        try $0.returnLoan($1); return .returned($1)
    })

let cancelHoldCommand = Command(
    name: "cancel-hold", summary: "cancel a hold",
    usage: "shelf cancel-hold ID|TITLE [--branch NAME | --digital] [--account NAME] [--json]",
    details: "Cancels the hold through the hold's own revoke link, at the library that has it, and removes it from "
        + "Reservations. A title can have its own hold (an e-book or audiobook) and holds on physical copies at "
        + "branches: --branch NAME cancels the one at that branch, --digital the title's own, and with two or more "
        + "holds and neither, nothing is cancelled and the choices are listed (exit 64). A title on loan, or neither, "
        + "is refused and nothing is sent (exit 64). " + changingNameHelp,
    valueOptions: ["--account", "--branch"], flagOptions: ["--digital"], positionals: 1...1
) { args, context in
    if args.has("--digital"), args.value("--branch") != nil {
        throw CommandUsage.onlyOneOf(["--branch", "--digital"]).error
    }
    let hold: HoldChoice = args.has("--digital") ? .own : args.value("--branch").map { .branch($0) } ?? .unnamed
    let call = try CirculationCall(
        args, context, changing: ("cancel-hold", "Cancel the hold on"), givingBack: .cancelHold)
    try call.circulation.cancelHold(call.entry, hold: hold)
    return call.report(.cancelled(call.entry))
}

let loansCommand = Command(
    name: "loans", summary: "My Books: what you have on loan",
    usage: "shelf loans [--account NAME] [--json]",
    details: "Lists the loans stored by the last `shelf sync`, borrow or return, soonest due first.",
    valueOptions: ["--account"], positionals: 0...0
) { args, context in
    let library = try context.library()
    let loans = try library.loans(account: args.value("--account"))
    if context.json { Output.json(loans.map { LoanJSON($0, library: library) }); return 0 }
    if loans.isEmpty {
        Output.line(EmptyListing.loans.words(for: .terminal).line); return 0
    }
    Output.line("My Books: \(Plural.count(loans.count, "loan"))")
    let libraries = try library.libraryNamesWhenSeveral()
    for loan in loans {
        var entry = loan.entry
        entry.availability.state = .loaned
        entry.availability.until = loan.endsAt
        Output.line(CatalogText.entry(entry, openable: library.openable))
        if let name = libraries[loan.accountID] { Output.line("    Library: \(name)") }
        if let path = library.downloadedPath(of: loan) { Output.line("    Downloaded: \(path)") }
    }
    return 0
}

let holdsCommand = Command(
    name: "holds", summary: "Reservations: your holds, ready ones first",
    usage: "shelf holds [--account NAME] [--json]",
    details: "Lists holds stored by the last sync or reserve: those ready to borrow first, then by queue position.",
    valueOptions: ["--account"], positionals: 0...0
) { args, context in
    let library = try context.library()
    let holds = try library.holds(account: args.value("--account"))
    if context.json { Output.json(holds.map { HoldJSON($0, openable: library.openable) }); return 0 }
    if holds.isEmpty { Output.line(EmptyListing.reservations.words(for: .terminal).line); return 0 }
    let ready = holds.filter(\.isReady).count
    Output.line("Reservations: \(Plural.count(holds.count, "hold")), \(ready) ready to borrow")
    if let badge = readyBadge(try library.readyHoldCount(account: args.value("--account"))) { Output.line(badge) }
    let libraries = try library.libraryNamesWhenSeveral()
    for hold in holds {
        let shown = HoldJSON(hold, openable: library.openable)
        if hold.branch != nil {
            // A branch's hold is for a physical copy: its own entry, never the e-book's format (the host's words).
            var first = "  " + hold.entry.title
            if !hold.entry.authors.isEmpty { first += " — " + hold.entry.authors.prefix(3).joined(separator: ", ") }
            Output.line(first)
            Output.line("    " + [shown.kind, shown.kept].compactMap { $0 }.joined(separator: " · "))
            Output.line("    ID: " + hold.entry.id)
        } else {
            Output.line(CatalogText.entry(hold.entry, openable: library.openable))
        }
        if let name = libraries[hold.accountID] { Output.line("    Library: \(name)") }
        // What the row offers is the host's: a physical copy that came in is picked up at its branch, not borrowed.
        if let pickUp = shown.pickUp { Output.line("    \(pickUp)") }
        if shown.actions.contains(.borrow) {
            Output.line(
                "    Borrow it now: shelf borrow \(hold.entry.id)"
                    + (libraries[hold.accountID] == nil ? "" : " --account \(hold.accountID)"))
        }
    }
    return 0
}

let syncCommand = Command(
    name: "sync", summary: "fetch loans and holds from the library",
    usage: "shelf sync [--account NAME] [--json]",
    details: "Reads the library's loans feed and replaces the stored loans and holds with it, in one step. "
        + "If the feed fails or is missing, the stored loans are kept exactly as they were. Each notification the sync "
        + "makes (a hold ready, a loan ending, a wished title free) is said on stderr, one line each, and listed in "
        + "--json's \"notifications\".",
    valueOptions: ["--account"], positionals: 0...0
) { args, context in
    let library = try context.library()
    let sinks: [NotificationSink] = [
        DesktopSink(environment: context.shelf.environment), EventStreamSink(events: context.shelf.events)
    ]
    let result = try library.syncPipeline(sinks: sinks).run(account: args.value("--account"))
    // Run by cron or a systemd timer, no one watches a terminal: each new notification goes to stderr (the log), one
    // line each, as a terminal shows them. On a terminal they are announced around the command (main.swift).
    if isatty(STDERR_FILENO) != 1 {
        for record in result.announced { Output.standardError("Notification: " + record.terminalLine + "\n") }
    }
    if context.json {
        Output.json(SyncJSON(result, library: library))
        return 0
    }
    Output.line(result.words(for: .terminal).line)
    return 0
}

let downloadCommand = Command(
    name: "download", summary: "download a loan or a free title",
    usage: "shelf download ID|TITLE [--account NAME] [--json]",
    details: "Fetches the book into shelf's data folder: open-access files, loans (following OPDS entries and "
        + "bearer-token documents). DRM shelf's plugins cannot open (Adobe ACSM, Readium LCP) is named and the "
        + "file kept for a tool that can (exit 69). " + readingNameHelp,
    valueOptions: ["--account"], positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context)
    let (circulation, entry) = (call.circulation, call.entry)
    let showProgress = isatty(2) == 1 && !context.json
    var lastShown = Date.distantPast
    let outcome = try call.library.download(
        entry, with: circulation,
        progress: showProgress
            ? { progress in
                guard Date().timeIntervalSince(lastShown) > 0.2 else { return }
                lastShown = Date()
                if let fraction = progress.fractionCompleted {
                    let width = 30, done = Int(fraction * Double(width))
                    Output.standardError(
                        "\r[" + String(repeating: "#", count: done) + String(repeating: " ", count: width - done)
                            + "] \(Int(fraction * 100))%")
                } else {
                    Output.standardError("\r\(progress.bytesWritten / 1024) KB")
                }
            } : nil)
    if showProgress { Output.standardError("\r" + String(repeating: " ", count: 40) + "\r") }
    if context.json {
        Output.json(DownloadedJSON(entry: entry, outcome: outcome))
    } else {
        Output.line(DownloadState.done(outcome).words(for: .terminal).line)
    }
    return outcome.supported ? 0 : ShelfError.Kind.unavailable.rawValue
}
