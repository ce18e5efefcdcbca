import Foundation
import Glibc
import Host

/// Reading-list commands (lists connect, pull, show, push; finished; wish; wishlist); registered in main.swift.
let readingListCommands: [Command] = [listsCommand, finishedCommand, wishCommand, wishlistCommand]

/// What the reading-list commands work with: the library session and its reading lists.
struct ReadingListContext {
    let library: LibrarySession
    let lists: ReadingLists

    init(_ context: Context) throws {
        library = try context.library()
        lists = library.readingLists()
    }
}

/// Prints wish notices; on a terminal they count as shown there, so the notification line does not repeat them.
func printNotices(_ notices: [ReadingLists.Notice], _ library: LibrarySession) {
    for n in notices { Output.line(n.text) }
    if isatty(STDOUT_FILENO) == 1 { library.markShownOnTerminal(notices.compactMap(\.notificationID)) }
}

/// Opens the patron's browser at `url`: $SHELF_BROWSER or $BROWSER, else xdg-open; the address is always printed
/// on stderr too, so that a patron without a desktop can copy it.
func openBrowser(_ url: String, environment env: [String: String]) {
    Output.standardError("Sign in at this address (opening your browser):\n  \(url)\n")
    let command = env["SHELF_BROWSER"] ?? env["BROWSER"] ?? "xdg-open"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command, url]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    // The address is on stderr above: a browser that cannot be started leaves the patron to open it there.
    try? process.run()
}

let listsCommand = Command(
    name: "lists",
    summary: "connect reading lists (Goodreads, Google Books), pull, show and push them",
    usage: "shelf lists connect SERVICE [--set KEY=VALUE]... [--secret KEY]... [--authorize] [--json]\n"
        + "       shelf lists pull [SERVICE] [--json]\n"
        + "       shelf lists show [--shelf NAME] [--service SERVICE] [--json]\n"
        + "       shelf lists push [SERVICE] [--json]\n"
        + "       shelf lists services [--json]\n"
        + "       shelf lists disconnect SERVICE",
    details: """
        connect      stores a service's settings (--set KEY=VALUE) and secrets (--secret KEY reads the value from
                     standard input: never on the command line); --authorize signs in through the browser with a
                     redirect to 127.0.0.1. Without options it lists the service's settings (and what is stored)
                     and connects nothing. Settings stored earlier and not given again are kept; a file setting
                     must name a file.
                     Goodreads: --set file=goodreads_library_export.csv, or --set userId=ID (public shelf feed), or
                     --secret apiKey --secret apiSecret --authorize (legacy API keys).
                     Google Books: --set clientId=ID --authorize (your own OAuth client), or --set userId=ID
                     --secret apiKey (public shelves). shelf ships no keys.
        pull         reads every connected service (or one): previous reads and to-read shelves. Titles on to-read
                     shelves join the wish list.
        show         what the last pull saw, by shelf.
        push         records the books you finished (`shelf finished BOOK`) on each service, once: pushing again
                     never adds a book twice. Where a service has no write path (Goodreads without a legacy key),
                     a CSV in Goodreads' import format is written and named.
        """,
    valueOptions: ["--set", "--secret", "--shelf", "--service"],
    flagOptions: ["--authorize"],
    positionals: 1...2
) { args, context in
    let sub = args.positionals[0]
    let target = args.positionals.count > 1 ? args.positionals[1] : nil
    let rl = try ReadingListContext(context)
    switch sub {
    case "connect":
        guard let service = target else {
            throw CommandUsage.listsNeedsService(subcommand: "connect").error
        }
        // Without options: the service's settings, read through describe; nothing is connected or stored.
        if args.all("--set").isEmpty && args.all("--secret").isEmpty && !args.has("--authorize") {
            let info = try rl.lists.settings(service: service)
            if !(info.description.settings ?? []).isEmpty {
                printSettings(info, json: context.json)
                return 0
            }
        }
        var settings: [String: String] = [:]
        for pair in args.all("--set") {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw CommandUsage.notAnAssignment(given: pair).error
            }
            settings[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        var secrets: [String: String] = [:]
        for key in args.all("--secret") {
            guard let value = readSecretLine(prompt: isatty(0) == 1 ? "\(key): " : nil), !value.isEmpty else {
                throw CommandUsage.noSecret(key: key).error
            }
            secrets[key] = value
        }
        let outcome = try rl.lists.connect(
            service: service, settings: settings, secrets: secrets,
            authorize: args.has("--authorize"),
            openBrowser: { openBrowser($0, environment: context.shelf.environment) })
        if context.json {
            Output.json(ConnectedServiceJSON(outcome))
        } else {
            let d = outcome.description
            var can: [String] = []
            if d.pull == true { can.append("pull shelves") }
            if d.pushRead == true { can.append("record reads") }
            if d.pushToRead == true { can.append("add want-to-reads") }
            let connected = ReadingListNotice.connectedToPull(
                service: service, name: d.name ?? service, plugin: outcome.pluginID, signedIn: outcome.authorized,
                abilities: can, writesFile: d.pushWrites == "file")
            Output.line(connected.words(for: .terminal).line)
        }
        return 0
    case "pull":
        let outcomes = try rl.lists.pull(service: target)
        let notices = try rl.lists.checkWishes()
        if context.json {
            Output.json(PullJSON(outcomes, notices: notices))
        } else {
            for o in outcomes { Output.line(o.words(for: .terminal).line) }
            printNotices(notices, rl.library)
        }
        return outcomes.contains { $0.error != nil } ? 1 : 0
    case "show":
        let entries = try rl.library.readingListEntries(
            service: args.value("--service") ?? target, shelf: args.value("--shelf"))
        if context.json {
            Output.json(ReadingListsJSON(entries))
            return 0
        }
        if entries.isEmpty {
            Output.line(ReadingListNotice.nothingPulledYet.words(for: .terminal).line)
            return 0
        }
        var last = ""
        for s in entries {
            let heading = "\(s.service) · \(s.entry.shelf)"
            if heading != last { Output.line(heading); last = heading }
            var facts: [String] = []
            if !s.entry.authors.isEmpty {
                facts.append("by " + s.entry.authors.map(DisplayText.oneLine).joined(separator: ", "))
            }
            if let read = s.entry.dateRead { facts.append("read \(read)") }
            if let rating = s.entry.ratingText { facts.append("rated \(rating) of 5") }
            if let isbn = s.entry.isbn { facts.append("ISBN \(isbn)") }
            Output.line(
                "  \(DisplayText.oneLine(s.entry.title))"
                    + (facts.isEmpty ? "" : " — " + facts.joined(separator: " · ")))
        }
        return 0
    case "push":
        let reports = try rl.lists.push(service: target)
        if context.json {
            Output.json(PushJSON(reports))
        } else if reports.isEmpty {
            Output.line(ReadingListNotice.nothingToPush.words(for: .terminal).line)
        } else {
            for r in reports { Output.line(r.words(for: .terminal).line) }
            var named = Set<String>()
            for r in reports {
                if let file = r.file, named.insert(file).inserted {
                    let written = ReadingListImportFile(file: file, uploadURL: r.uploadURL, serviceName: r.serviceName)
                    Output.line(written.words(for: .terminal).line)
                }
            }
        }
        return reports.contains { $0.outcome == "failed" } ? 1 : 0
    case "services":
        let services = try rl.library.connectedServices()
        if context.json {
            Output.json(ServicesJSON(services))
        } else if services.isEmpty {
            Output.line(ReadingListNotice.noneConnected.words(for: .terminal).line)
        } else {
            for s in services {
                Output.line(
                    "\(s.service) (\(s.pluginID)): "
                        + (s.pulledAt.map { "pulled \(localDayAndTime($0))" } ?? "never pulled")
                        + (s.pullError.map { "; last pull failed: \($0)" } ?? ""))
            }
        }
        return 0
    case "disconnect":
        guard let service = target else { throw CommandUsage.listsNeedsService(subcommand: "disconnect").error }
        let change = try rl.lists.disconnect(service: service)
        if context.json {
            Output.json(DisconnectedJSON(service: service, change: change))
        } else {
            Output.line(change.words(for: .terminal).line)
        }
        return 0
    default:
        throw CommandUsage.noListsSubcommand(sub).error
    }
}

let finishedCommand = Command(
    name: "finished",
    summary: "mark a book read and queue it for your reading lists",
    usage: "shelf finished BOOK [--isbn ISBN] [--json]",
    details: "The read is recorded on every connected reading list that records reads at the next `shelf lists push`; "
        + "marking a book twice queues it once. --isbn names the edition when the book's own metadata carries no ISBN. "
        + changingBookArgumentHelp + " A book file that is not on the shelf is marked read too.",
    valueOptions: ["--isbn"],
    positionals: 1...1
) { args, context in
    let rl = try ReadingListContext(context)
    let target = args.positionals[0]
    let bookshelf = try openBookshelf(context)
    let outcome: ReadingLists.FinishedOutcome
    if FileManager.default.fileExists(atPath: target), try !bookshelf.holdsFile(target) {
        outcome = try rl.lists.finished(file: target, isbn: args.value("--isbn"))
    } else {
        let book = try bookshelf.findToChange(target, action: "mark a book read") {
            "Mark “\(DisplayText.oneLine($0.book.title))” read?"
        }
        outcome = try rl.lists.finished(book.book, isbn: args.value("--isbn"))
    }
    if context.json {
        Output.json(FinishedJSON(outcome))
    } else {
        let marked = ReadingListNotice.markedRead(
            title: outcome.entry.title, queued: outcome.queued, alreadyQueued: outcome.alreadyQueued)
        Output.line(marked.words(for: .terminal).line)
    }
    return 0
}

let wishCommand = Command(
    name: "wish",
    summary: "add a title to the wish list, by ISBN or title",
    usage: "shelf wish ISBN|TITLE [--author NAME] [--json]",
    details: "Wishes are matched to every library's catalog (ISBN first, then title and author); when a wished title "
        + "becomes available to borrow you are told once.",
    valueOptions: ["--author"],
    positionals: 1...1
) { args, context in
    let rl = try ReadingListContext(context)
    let (wish, notices) = try rl.library.wish(args.positionals[0], author: args.value("--author"))
    if context.json {
        Output.json(WishJSON(wish))
    } else {
        Output.line(WishListChange.added(title: DisplayText.oneLine(wish.title)).words(for: .terminal).line)
        Output.line(WishStanding(wish).words(for: .terminal).line)
        printNotices(notices, rl.library)
    }
    return 0
}

let wishlistCommand = Command(
    name: "wishlist",
    summary: "show the wish list with each title's match and availability",
    usage: "shelf wishlist [--remove ID] [--offline] [--json]",
    details:
        "Each wish is matched again against the catalogs shelf has seen (`shelf browse`, `shelf catalog-search`), and "
        + "each library is asked again about the wished titles it holds that were not free (not with --offline). A title "
        + "that has become available to borrow is announced once: \"[title] is available to borrow now at [library].\"",
    valueOptions: ["--remove"],
    flagOptions: ["--offline"],
    positionals: 0...0
) { args, context in
    let rl = try ReadingListContext(context)
    var notices: [ReadingLists.Notice] = []
    if let id = args.value("--remove") {
        // The title, read before it goes, so that the patron sees which wish was removed (and what that look found
        // newly available is said below, as it is said only once).
        let (before, said) = try rl.library.wishlist(offline: true)
        notices += said
        guard let n = Int64(id), let title = before.first(where: { $0.id == n })?.title,
            try rl.library.removeWish(id: n)
        else {
            if !context.json { printNotices(notices, rl.library) }
            throw CommandLookup.noWish(id: id).error
        }
        if !context.json {
            Output.line(WishListChange.removed(title: DisplayText.oneLine(title)).words(for: .terminal).line)
        }
    }
    let (wishes, more) = try rl.library.wishlist(offline: args.has("--offline"))
    notices += more
    if context.json {
        Output.json(WishlistJSON(wishes: wishes, notices: notices))
        return 0
    }
    printNotices(notices, rl.library)
    if wishes.isEmpty { Output.line(EmptyListing.wishList.words(for: .terminal).line) }
    for w in wishes {
        Output.line("\(w.id). \(w.title)" + (w.authors.isEmpty ? "" : " by \(w.authors.joined(separator: ", "))"))
        Output.line("   \(WishText.words(w))")
    }
    return 0
}

/// `shelf lists connect SERVICE` without options: what the service takes, from its describe, and what is stored.
func printSettings(_ info: ReadingLists.ServiceSettings, json: Bool) {
    let d = info.description
    if json {
        Output.json(ServiceSettingsJSON(info))
        return
    }
    Output.line(
        "\(d.name ?? info.service) (\(info.service), plugin \(info.pluginID)): "
            + (info.stored == nil ? "not connected" : "connected"))
    Output.line("Settings:")
    let width = (d.settings ?? []).map(\.key.count).max() ?? 0
    for setting in d.settings ?? [] {
        var notes: [String] = []
        if setting.required == true { notes.append("required") }
        if setting.secret == true { notes.append("secret: --secret \(setting.key), read from standard input") }
        if let type = setting.type, type != "text" { notes.append(type) }
        if setting.secret != true, let value = info.stored?[setting.key] { notes.append("now \(value)") }
        Output.line(
            "  \(setting.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(setting.label)"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"))
    }
    Output.line(
        "Connect: `shelf lists connect \(info.service) --set KEY=VALUE... [--secret KEY]...`"
            + (d.authorization == "oauth1" || d.authorization == "oauth2" ? "; add --authorize to sign in." : "."))
}
