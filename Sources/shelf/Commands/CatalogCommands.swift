import Foundation
import Host

/// Library account, catalog and circulation commands; registered in main.swift.
let catalogCommands: [Command] = [
    accountCommand, loginCommand, logoutCommand, browseCommand, catalogSearchCommand, bookCommand,
    borrowCommand, reserveCommand, returnCommand, cancelHoldCommand, loansCommand, holdsCommand, syncCommand,
    downloadCommand
]

func showFeed(_ result: BrowseResult, library: LibrarySession, json: Bool) {
    let openable = library.openable
    let feed = result.feed
    if json {
        Output.json(FeedJSON(result, openable: openable))
        return
    }
    Output.line(feed.title)
    if !feed.entryPoints.isEmpty || result.tab != nil {
        let tabs = FormatTab.allCases.map { tab in tab == (result.tab ?? .all) ? "[\(tab.words)]" : tab.words }
        Output.line("Formats: " + tabs.joined(separator: "  ") + "  (showing \((result.tab ?? .all).words))")
    }
    Output.line()
    let shown = Set(result.entries.map(\.id))
    var listed = Set<String>()
    for lane in feed.lanes {
        let members = lane.entryIDs.filter(shown.contains)
        guard !members.isEmpty || !lane.navigation.isEmpty else { continue }
        Output.line("\(lane.title):")
        for id in members {
            if let entry = result.entries.first(where: { $0.id == id }) {
                Output.line(CatalogText.entry(entry, openable: openable))
            }
            listed.insert(id)
        }
        for link in lane.navigation {
            Output.line("  \(link.title ?? link.href)  →  shelf browse \"\(link.title ?? link.href)\"")
        }
        Output.line("  More: shelf browse \"\(lane.title)\"")
        Output.line()
    }
    let rest = result.entries.filter { !listed.contains($0.id) }
    for entry in rest { Output.line(CatalogText.entry(entry, openable: openable)) }
    if !feed.navigation.isEmpty {
        if !rest.isEmpty { Output.line() }
        for link in feed.navigation {
            Output.line("  \(link.title ?? link.href)  →  shelf browse \"\(link.title ?? link.href)\"")
        }
    }
    if result.entries.isEmpty && feed.navigation.isEmpty && feed.lanes.isEmpty {
        Output.line(EmptyListing.catalogPage(hidden: result.hidden).words(for: .terminal).line)
    } else if result.hidden > 0 {
        Output.line("(\(result.hidden) more hidden by the filters)")
    }
    if !feed.facetGroups.isEmpty {
        Output.line()
        for group in feed.facetGroups {
            Output.line(
                "\(group.title): " + group.facets.map { $0.active ? "[\($0.title)]" : $0.title }.joined(separator: ", ")
                    + "   (--facet \"\(group.title)=…\")")
        }
    }
    if feed.next != nil { Output.line(CatalogPageNote.nextPage(result.page + 1).words(for: .terminal).line) }
    if !feed.skipped.isEmpty {
        Output.error(
            "warning: \(feed.skipped.count) link(s) in this feed were skipped: \(feed.skipped.prefix(3).joined(separator: "; "))"
        )
    }
}

let browseCommand = Command(
    name: "browse", summary: "browse a library catalog by format, lane, facet and page",
    usage:
        "shelf browse [URL|LANE] [--account NAME] [--format all|ebook|audiobook] [--facet NAME=VALUE]... [--page N] [--available] [--supported] [--json]",
    details: """
        Without URL, the account's catalog root. LANE is the title of a lane or section of the root.
        A local file or file:// URL works as a catalog, with no account.
        --format picks the format tab (All, eBooks, Audiobooks); it stays selected for the account while you
        browse and search, until you choose another. --available shows only titles you can borrow now;
        --supported hides titles no installed plugin opens (otherwise marked "not supported on this device").
        """,
    valueOptions: ["--account", "--format", "--facet", "--page"], flagOptions: ["--available", "--supported"],
    positionals: 0...1
) { args, context in
    let library = try context.library()
    let format = try formatChoice(args)
    let result = try library.browse(
        args.positionals.first, account: args.value("--account"), format: format,
        refinement: try catalogRefinement(args))
    showFeed(result, library: library, json: context.json)
    return 0
}

let catalogSearchCommand = Command(
    name: "catalog-search", summary: "search a library catalog",
    usage:
        "shelf catalog-search QUERY [--account NAME | --url URL] [--format all|ebook|audiobook] [--available] [--supported] [--page N] [--json]",
    details: """
        Searches through the catalog's OpenSearch description or OPDS 2 search template. The format tab
        chosen while browsing stays selected; "All" shows eBooks and Audiobooks with their format written out.
        No hits is not an error: shelf says No results for “QUERY” and exits 0.
        """,
    valueOptions: ["--account", "--format", "--url", "--page", "--facet"], flagOptions: ["--available", "--supported"],
    positionals: 1...1
) { args, context in
    let library = try context.library()
    let query = args.positionals[0]
    guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        // An empty search is sent to no library: some answer it with everything, some with an error page.
        throw CommandUsage.catalogSearchWithoutWords.error
    }
    let format = try formatChoice(args)
    let refinement = try catalogRefinement(args)
    let result = try library.search(
        query, url: args.value("--url"), account: args.value("--account"), format: format, refinement: refinement)
    let tab = result.tab ?? .all
    if result.entries.isEmpty && !context.json {
        // The tab stays selected while searching, so a title in the other format is one option away.
        let place = ["--account", "--url"].compactMap { option in
            args.value(option).map { " \(option) \(ShellWords.quoted($0))" }
        }.joined()
        let empty = EmptyListing.searchResults(
            query: query, tab: tab, availableNow: refinement.available,
            everyFormat: tab == .all ? nil : "shelf catalog-search \(ShellWords.quoted(query))\(place) --format all")
        Output.line(empty.words(for: .terminal).line)
        return 0
    }
    showFeed(result, library: library, json: context.json)
    return 0
}

let bookCommand = Command(
    name: "book", summary: "details of a catalog title",
    usage: "shelf book ID|TITLE [--account NAME] [--json]",
    details: readingNameHelp + " Shows format, availability, "
        + "what you can do, how it can be acquired, and branches offering a physical copy.",
    valueOptions: ["--account"], positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context)
    // The library's word of now, or what shelf saw before said as such (never old availability passed off as now).
    let now = call.circulation.now(call.entry)
    let entry = now.entry
    let openable = call.library.openable
    // What it offers is the host's (a title gone offers nothing, a physical copy's hold is picked up, not borrowed).
    let offer = call.circulation.offer(now)
    if context.json {
        var document = EntryJSON(entry, openable: openable, full: true)
        document.availabilityNote = now.note
        document.offering(offer)
        Output.json(document)
        return 0
    }
    Output.line(entry.title)
    if !entry.authors.isEmpty { Output.line("by \(entry.authors.joined(separator: ", "))") }
    Output.line("Format:       \(entry.format.words)")
    Output.line("Availability: \(offer.availabilityWords)")
    if let note = now.note { Output.line("              \(note)") }
    if let publisher = entry.publisher { Output.line("Publisher:    \(publisher)") }
    if let published = entry.published { Output.line("Published:    \(published)") }
    if let language = entry.language { Output.line("Language:     \(language)") }
    if !entry.categories.isEmpty { Output.line("Categories:   \(entry.categories.prefix(6).joined(separator: ", "))") }
    Output.line("ID:           \(entry.id)")
    if !entry.isSupported(by: openable) {
        let protection = entry.acquisitionPaths.compactMap(\.protection).first
        Output.line("Not supported on this device" + (protection.map { " (\($0))" } ?? ""))
    }
    for path in entry.acquisitionPaths {
        Output.line(
            "  Acquisition: " + path.types.map(MediaTypes.base).joined(separator: " → ")
                + (path.isSupported(by: openable) ? "" : "  (not supported on this device)"))
    }
    if !entry.branches.isEmpty {
        Output.line(offer.branchesHeading(account: call.circulation.accountToName))
        for branch in entry.branches {
            let held = offer.heldBranches.contains(branch.name) ? " (on hold for you)" : ""
            Output.line("  \(branch.name)" + (branch.availability.map { ": \($0.words)" } ?? "") + held)
        }
    }
    // With several libraries, the commands name this one: without --account they act at the one in use.
    for line in offer.commands(account: call.circulation.accountToName) { Output.line(line) }
    if let summary = entry.summary {
        Output.line(); Output.line(summary.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression))
    }
    return 0
}
