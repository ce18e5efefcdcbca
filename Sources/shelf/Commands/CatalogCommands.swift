import Foundation
import Host

/// Library account, catalog and circulation commands; registered in main.swift.
let catalogCommands: [Command] = [
    accountCommand, loginCommand, logoutCommand, browseCommand, catalogSearchCommand, bookCommand,
    borrowCommand, reserveCommand, returnCommand, cancelHoldCommand, loansCommand, holdsCommand, syncCommand,
    downloadCommand,
]

struct FeedJSON: Encodable {
    struct Nav: Encodable { let title: String; let href: String }
    struct Lane: Encodable { let title: String; let href: String?; let entries: [String] }
    struct Facet: Encodable { let title: String; let active: Bool; let count: Int?; let href: String }
    struct FacetGroup: Encodable { let group: String; let facets: [Facet] }
    struct Tab: Encodable { let format: String; let title: String; let active: Bool }
    let title: String
    let url: String
    let kind: String
    let format: String?
    let formats: [Tab]
    let navigation: [Nav]
    let lanes: [Lane]
    let facets: [FacetGroup]
    let entries: [EntryJSON]
    let hidden: Int
    let page: Int
    let next: String?
    let previous: String?
    let skipped: [String]
}

/// A feed as the patron asked to see it: format tab, facets, page, filters.
struct BrowseResult {
    var feed: CatalogFeed
    var entries: [CatalogEntry]
    var hidden: Int
    var tab: FormatTab?
    var page: Int
}

private func isAddress(_ text: String) -> Bool {
    text.contains("://") || text.hasPrefix("/") || text.hasPrefix("./") || FileManager.default.fileExists(atPath: text)
}

/// The account a browse is for: --account, the account whose catalog shares the address's host, or the default.
private func browseAccount(_ catalog: CatalogContext, _ args: Arguments, target: String?) throws -> AccountRecord? {
    if args.value("--account") != nil { return try catalog.account(args) }
    if let target, isAddress(target) {
        let url = try CatalogClient.address(target)
        if url.isFileURL { return nil }
        return try catalog.database.accounts().first { URL(string: $0.catalogURL)?.host == url.host && URL(string: $0.catalogURL)?.port == url.port }
    }
    return try catalog.accounts.resolve(nil)
}

func showFeed(_ result: BrowseResult, catalog: CatalogContext, json: Bool, emptyMessage: String? = nil) {
    let openable = catalog.openable
    let feed = result.feed
    if json {
        Output.json(FeedJSON(
            title: feed.title, url: feed.url, kind: feed.kind.rawValue, format: result.tab?.words,
            formats: feed.entryPoints.map { .init(format: $0.tab.rawValue, title: $0.tab.words, active: $0.tab == result.tab || ($0.active && result.tab == nil)) },
            navigation: feed.navigation.map { .init(title: $0.title ?? $0.href, href: $0.href) },
            lanes: feed.lanes.map { .init(title: $0.title, href: $0.href, entries: $0.entryIDs) },
            facets: feed.facetGroups.map { group in .init(group: group.title, facets: group.facets.map {
                .init(title: $0.title, active: $0.active, count: $0.count, href: $0.href) }) },
            entries: result.entries.map { EntryJSON($0, openable: openable) }, hidden: result.hidden, page: result.page,
            next: feed.next?.href, previous: feed.previous?.href, skipped: feed.skipped))
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
            if let entry = result.entries.first(where: { $0.id == id }) { Output.line(CatalogText.entry(entry, openable: openable)) }
            listed.insert(id)
        }
        for link in lane.navigation { Output.line("  \(link.title ?? link.href)  →  shelf browse \"\(link.title ?? link.href)\"") }
        Output.line("  More: shelf browse \"\(lane.title)\"")
        Output.line()
    }
    let rest = result.entries.filter { !listed.contains($0.id) }
    for entry in rest { Output.line(CatalogText.entry(entry, openable: openable)) }
    if !feed.navigation.isEmpty {
        if !rest.isEmpty { Output.line() }
        for link in feed.navigation { Output.line("  \(link.title ?? link.href)  →  shelf browse \"\(link.title ?? link.href)\"") }
    }
    if result.entries.isEmpty && feed.navigation.isEmpty && feed.lanes.isEmpty {
        Output.line(emptyMessage ?? (result.hidden > 0 ? "Nothing to show here (\(result.hidden) hidden by the filters)." : "This catalog page is empty."))
    } else if result.hidden > 0 {
        Output.line("(\(result.hidden) more hidden by the filters)")
    }
    if !feed.facetGroups.isEmpty {
        Output.line()
        for group in feed.facetGroups {
            Output.line("\(group.title): " + group.facets.map { $0.active ? "[\($0.title)]" : $0.title }.joined(separator: ", ")
                        + "   (--facet \"\(group.title)=…\")")
        }
    }
    if feed.next != nil { Output.line("More on the next page: --page \(result.page + 1)") }
    if !feed.skipped.isEmpty { Output.error("warning: \(feed.skipped.count) link(s) in this feed were skipped: \(feed.skipped.prefix(3).joined(separator: "; "))") }
}

/// Applies the format tab, facets, availability, page and support filters to a feed.
func refine(_ start: CatalogFeed, client: CatalogClient, catalog: CatalogContext, args: Arguments, tab: FormatTab?) throws -> BrowseResult {
    var feed = start
    func follow(_ href: String) throws {
        guard let url = URL(string: href) else { throw ShelfError(.badData, "the catalog links to an unusable address", subject: href) }
        feed = try client.feed(url)
    }
    if let tab, let point = feed.entryPoints.first(where: { $0.tab == tab }), !point.active || feed.activeTab != tab {
        try follow(point.href)
    }
    for facet in args.all("--facet") {
        let parts = facet.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ShelfError(.usage, "--facet takes NAME=VALUE, e.g. --facet \"Sort by=Title\"") }
        guard let group = feed.facetGroups.first(where: { $0.title.caseInsensitiveCompare(parts[0]) == .orderedSame }) else {
            throw ShelfError(.usage, "this page has no facet \"\(parts[0])\"",
                             hint: feed.facetGroups.isEmpty ? "It offers none." : "It offers: " + feed.facetGroups.map(\.title).joined(separator: ", "))
        }
        guard let value = group.facets.first(where: { $0.title.caseInsensitiveCompare(parts[1]) == .orderedSame }) else {
            throw ShelfError(.usage, "\"\(group.title)\" has no value \"\(parts[1])\"",
                             hint: "Values: " + group.facets.map(\.title).joined(separator: ", "))
        }
        try follow(value.href)
    }
    var filterAvailableLocally = args.has("--available")
    if args.has("--available") {
        let availableFacet = feed.facetGroups.flatMap(\.facets).first { $0.title.lowercased().contains("available now") }
        if let availableFacet {
            if !availableFacet.active { try follow(availableFacet.href) }
            filterAvailableLocally = true
        }
    }
    let page = try args.int("--page", in: 1...1000) ?? 1
    if page > 1 {
        for number in 2...page {
            guard let next = feed.next else { throw ShelfError(.noInput, "there is no page \(number); the last page is \(number - 1)") }
            try follow(next.href)
        }
    }
    var entries = feed.entries
    let before = entries.count
    if let tab { entries = entries.filter { tab.admits($0.format) } }
    if filterAvailableLocally { entries = entries.filter { $0.availability.canBorrowNow } }
    if args.has("--supported") { entries = entries.filter { $0.isSupported(by: catalog.openable) } }
    return BrowseResult(feed: feed, entries: entries, hidden: before - entries.count, tab: tab, page: page)
}

let browseCommand = Command(
    name: "browse", summary: "browse a library catalog by format, lane, facet and page",
    usage: "shelf browse [URL|LANE] [--account NAME] [--format all|ebook|audiobook] [--facet NAME=VALUE]... [--page N] [--available] [--supported] [--json]",
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
    let catalog = try CatalogContext(context)
    let target = args.positionals.first
    let account = try browseAccount(catalog, args, target: target)
    let client = catalog.client(for: account)
    let tab = try catalog.tab(args, account: account)
    var feed: CatalogFeed
    if let target, isAddress(target) {
        feed = try client.feed(try CatalogClient.address(target))
    } else {
        guard let account else { throw ShelfError(.usage, "no catalog to browse", hint: "Give a URL, or add an account with `shelf account add URL`.") }
        feed = try client.feed(try CatalogClient.address(account.catalogURL))
        if let tab, let point = feed.entryPoints.first(where: { $0.tab == tab }), !point.active, let url = URL(string: point.href) {
            feed = try client.feed(url)
        }
        if let lane = target {
            let candidates: [(String, String)] = feed.lanes.compactMap { l in l.href.map { (l.title, $0) } }
                + feed.navigation.map { ($0.title ?? "", $0.href) }
                + feed.lanes.flatMap { $0.navigation.map { ($0.title ?? "", $0.href) } }
            let exact = candidates.filter { $0.0.caseInsensitiveCompare(lane) == .orderedSame }
            let partial = candidates.filter { $0.0.localizedCaseInsensitiveContains(lane) }
            guard let chosen = exact.first ?? (partial.count == 1 ? partial.first : nil), let url = URL(string: chosen.1) else {
                throw ShelfError(.usage, partial.isEmpty ? "no lane \"\(lane)\" in \(feed.title)" : "\"\(lane)\" matches several lanes",
                                 hint: "Lanes: " + candidates.map(\.0).prefix(20).joined(separator: ", "))
            }
            feed = try client.feed(url)
        }
    }
    let result = try refine(feed, client: client, catalog: catalog, args: args, tab: tab)
    showFeed(result, catalog: catalog, json: context.json)
    return 0
}

/// Puts the format tab into a Palace search address (`entrypoint=`), keeping everything else.
private func withEntryPoint(_ address: String, _ tab: FormatTab?) -> String {
    guard let tab, var components = URLComponents(string: address.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")) else { return address }
    var items = components.queryItems ?? []
    items.removeAll { $0.name.lowercased() == "entrypoint" }
    items.append(URLQueryItem(name: "entrypoint", value: tab.entryPointValue))
    components.queryItems = items
    return (components.string ?? address).replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
}

let catalogSearchCommand = Command(
    name: "catalog-search", summary: "search a library catalog",
    usage: "shelf catalog-search QUERY [--account NAME | --url URL] [--format all|ebook|audiobook] [--available] [--supported] [--page N] [--json]",
    details: """
    Searches through the catalog's OpenSearch description or OPDS 2 search template. The format tab
    chosen while browsing stays selected; "All" shows eBooks and Audiobooks with their format written out.
    No hits is not an error: shelf says No results for “QUERY” and exits 0.
    """,
    valueOptions: ["--account", "--format", "--url", "--page", "--facet"], flagOptions: ["--available", "--supported"],
    positionals: 1...1
) { args, context in
    let catalog = try CatalogContext(context)
    let query = args.positionals[0]
    let account = try browseAccount(catalog, args, target: args.value("--url"))
    let client = catalog.client(for: account)
    let tab = try catalog.tab(args, account: account)
    guard let rootAddress = args.value("--url") ?? account?.catalogURL else {
        throw ShelfError(.usage, "no catalog to search", hint: "Add an account, or give --url.")
    }
    let root = try client.feed(try CatalogClient.address(rootAddress))
    guard let link = root.search ?? root.links.first(where: { $0.templated == true && $0.rel == "search" }) else {
        throw ShelfError(.unavailable, "\(root.title) offers no search", subject: rootAddress)
    }
    var template: String
    if link.templated == true || link.href.contains("{") {
        template = link.href
    } else if let type = link.type, type.contains("opensearchdescription") || type.contains("xml"),
              let url = URL(string: withEntryPoint(link.href, root.entryPoints.isEmpty ? nil : tab)) {
        let fetched = try client.fetch(url, accept: "application/opensearchdescription+xml, */*;q=0.5")
        do { template = try OpenSearchDescription.parse(fetched.data, url: fetched.url).template } catch let e as CatalogParseError {
            throw ShelfError(.badData, e.reason, subject: url.absoluteString)
        }
    } else {
        template = link.href + (link.href.contains("?") ? "&" : "?") + "q={searchTerms}"
    }
    if !root.entryPoints.isEmpty || template.lowercased().contains("entrypoint=") { template = withEntryPoint(template, tab) }
    let address = SearchTemplate.fill(template, query: query)
    guard let url = URL(string: address) else { throw ShelfError(.badData, "the search template gives an unusable address", subject: address) }
    let feed = try client.feed(url)
    let result = try refine(feed, client: client, catalog: catalog, args: args, tab: tab)
    if result.entries.isEmpty && !context.json {
        Output.line("No results for \(CatalogText.quoted(query))" + (tab.map { $0 == .all ? "" : " in \($0.words)" } ?? ""))
        return 0
    }
    showFeed(result, catalog: catalog, json: context.json)
    return 0
}

let bookCommand = Command(
    name: "book", summary: "details of a catalog title",
    usage: "shelf book ID [--account NAME] [--json]",
    details: "ID is the identifier browse and catalog-search show, or any unique part of it. Shows format, availability, "
        + "what you can do, how it can be acquired, and branches offering a physical copy.",
    valueOptions: ["--account"], positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context)
    let entry = call.circulation.refreshed(call.entry)
    let openable = call.catalog.openable
    if context.json { Output.json(EntryJSON(entry, openable: openable, full: true)); return 0 }
    Output.line(entry.title)
    if !entry.authors.isEmpty { Output.line("by \(entry.authors.joined(separator: ", "))") }
    Output.line("Format:       \(entry.format.words)")
    Output.line("Availability: \(entry.availability.words)")
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
        Output.line("  Acquisition: " + path.types.map(MediaTypes.base).joined(separator: " → ")
                    + (path.isSupported(by: openable) ? "" : "  (not supported on this device)"))
    }
    if !entry.branches.isEmpty {
        Output.line("Physical copies (shelf reserve ID --branch NAME):")
        for branch in entry.branches { Output.line("  \(branch.name)" + (branch.availability.map { ": \($0.words)" } ?? "")) }
    }
    switch entry.availability.state {
    case .available, .ready: if entry.borrowLink != nil { Output.line("Borrow it: shelf borrow \(entry.id)") }
    case .unavailable: Output.line("Reserve it: shelf reserve \(entry.id)")
    case .loaned: Output.line("On loan: shelf download \(entry.id), shelf return \(entry.id)")
    case .reserved: Output.line("Cancel the hold: shelf cancel-hold \(entry.id)")
    case .openAccess: Output.line("Free to download: shelf download \(entry.id)")
    case .unknown: break
    }
    if let summary = entry.summary { Output.line(); Output.line(summary.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)) }
    return 0
}
