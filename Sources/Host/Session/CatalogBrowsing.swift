internal import ShelfLibrary
internal import ShelfCore
import Foundation

/// A catalog page as the patron asked to see it: the feed after the format tab, facets and page were followed,
/// and its entries after the filters.
public struct BrowseResult: Sendable {
    public var feed: CatalogFeed
    public var entries: [CatalogEntry]
    /// How many entries the filters hid.
    public var hidden: Int
    public var tab: FormatTab?
    public var page: Int
}

/// What to do to a catalog page before showing it.
public struct CatalogRefinement: Sendable {
    /// Facets to follow, by group and value title (case-insensitive), in order.
    public var facets: [(group: String, value: String)] = []
    /// Only titles that can be borrowed now (the catalog's "Available now" facet when it has one).
    public var available = false
    /// Only titles an installed plugin opens.
    public var supported = false
    /// The page, from 1, followed through `next` links.
    public var page = 1

    public init(
        facets: [(group: String, value: String)] = [], available: Bool = false, supported: Bool = false, page: Int = 1
    ) {
        self.facets = facets
        self.available = available
        self.supported = supported
        self.page = page
    }

    /// Adds the facet a patron names as "GROUP=VALUE" (e.g. "Sort by=Title", split at the first "="); false, and
    /// nothing added, when the text has no "=" with a word on each side.
    public mutating func addFacet(_ text: String) -> Bool {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return false }
        facets.append((group: parts[0], value: parts[1]))
        return true
    }
}

extension LibrarySession {
    /// Whether `text` names a catalog by address (URL, path or existing file) rather than a lane.
    public static func isAddress(_ text: String) -> Bool {
        text.contains("://") || text.hasPrefix("/") || text.hasPrefix("./")
            || FileManager.default.fileExists(atPath: text)
    }

    /// The account a browse is for: the one NAME names, the account whose catalog shares the address's host, or
    /// the one in use; none for a catalog on disk.
    public func browseAccount(_ name: String?, target: String?) throws -> AccountRecord? {
        if name != nil { return try account(name) }
        if let target, Self.isAddress(target) {
            let url = try CatalogClient.address(target)
            if url.isFileURL { return nil }
            return try database.accounts().first {
                URL(string: $0.catalogURL)?.host == url.host && URL(string: $0.catalogURL)?.port == url.port
            }
        }
        return try accounts.resolve(nil)
    }

    /// A catalog page: `target` is an address, a lane of the account's root, or nil for the root itself. `format`
    /// chooses the format tab ("all", "ebook", "audiobook"), kept for the account; nil keeps the one chosen before.
    public func browse(_ target: String?, account name: String?, format: String?, refinement: CatalogRefinement) throws
        -> BrowseResult
    {
        let account = try browseAccount(name, target: target)
        let client = client(for: account)
        let tab = try formatTab(choosing: format, account: account)
        var feed: CatalogFeed
        if let target, Self.isAddress(target) {
            feed = try client.feed(try CatalogClient.address(target))
        } else {
            guard let account else {
                throw ShelfError(
                    .usage, "no catalog to browse",
                    next: NextStep(
                        terminal: "Give a URL, or add an account with `shelf account add URL`.",
                        browser: "Add a library on the Accounts page."))
            }
            feed = try client.feed(try CatalogClient.address(account.catalogURL))
            if let tab, let point = feed.entryPoints.first(where: { $0.tab == tab }), !point.active,
                let url = URL(string: point.href)
            {
                feed = try client.feed(url)
            }
            if let lane = target {
                let candidates: [(String, String)] =
                    feed.lanes.compactMap { l in l.href.map { (l.title, $0) } }
                    + feed.navigation.map { ($0.title ?? "", $0.href) }
                    + feed.lanes.flatMap { $0.navigation.map { ($0.title ?? "", $0.href) } }
                let exact = candidates.filter { $0.0.caseInsensitiveCompare(lane) == .orderedSame }
                let partial = candidates.filter { $0.0.localizedCaseInsensitiveContains(lane) }
                guard let chosen = exact.first ?? (partial.count == 1 ? partial.first : nil),
                    let url = URL(string: chosen.1)
                else {
                    throw ShelfError(
                        .usage,
                        partial.isEmpty ? "no lane \"\(lane)\" in \(feed.title)" : "\"\(lane)\" matches several lanes",
                        hint: "Lanes: " + candidates.map(\.0).prefix(20).joined(separator: ", "))
                }
                feed = try client.feed(url)
            }
        }
        return try refine(feed, client: client, refinement: refinement, tab: tab)
    }

    /// Searches the catalog at `url` (or the account's) through its OpenSearch description or OPDS 2 template.
    public func search(
        _ query: String, url address: String?, account name: String?, format: String?,
        refinement: CatalogRefinement
    ) throws -> BrowseResult {
        let account = try browseAccount(name, target: address)
        let client = client(for: account)
        let tab = try formatTab(choosing: format, account: account)
        guard let rootAddress = address ?? account?.catalogURL else {
            throw ShelfError(.usage, "no catalog to search", hint: "Add an account, or give --url.")
        }
        let root = try client.feed(try CatalogClient.address(rootAddress))
        guard let link = root.search ?? root.links.first(where: { $0.templated == true && $0.rel == "search" }) else {
            // What to do instead: its titles can still be browsed, in the format asked for.
            let browse =
                "shelf browse" + (address.map { " \($0)" } ?? "") + (name.map { " --account \($0)" } ?? "")
                + (tab.map { $0 == .all ? "" : " --format \($0.rawValue)" } ?? "")
            throw ShelfError(
                .unavailable, "\(root.title) offers no search", subject: rootAddress,
                hint: "Browse its titles instead: `\(browse)`.")
        }
        var template: String
        if link.templated == true || link.href.contains("{") {
            template = link.href
        } else if let type = link.type, type.contains("opensearchdescription") || type.contains("xml"),
            let url = URL(string: Self.withEntryPoint(link.href, root.entryPoints.isEmpty ? nil : tab))
        {
            let fetched = try client.fetch(url, accept: "application/opensearchdescription+xml, */*;q=0.5")
            do { template = try OpenSearchDescription.parse(fetched.data, url: fetched.url).template } catch let e
                as CatalogParseError
            {
                throw ShelfError(.badData, e.reason, subject: url.absoluteString)
            }
        } else {
            template = link.href + (link.href.contains("?") ? "&" : "?") + "q={searchTerms}"
        }
        if !root.entryPoints.isEmpty || template.lowercased().contains("entrypoint=") {
            template = Self.withEntryPoint(template, tab)
        }
        let filled = SearchTemplate.fill(template, query: query)
        guard let url = URL(string: filled) else {
            throw ShelfError(.badData, "the search template gives an unusable address", subject: filled)
        }
        return try refine(try client.feed(url), client: client, refinement: refinement, tab: tab)
    }

    /// Puts the format tab into a Palace search address (`entrypoint=`), keeping everything else.
    static func withEntryPoint(_ address: String, _ tab: FormatTab?) -> String {
        guard let tab,
            var components = URLComponents(
                string: address.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D"))
        else { return address }
        var items = components.queryItems ?? []
        items.removeAll { $0.name.lowercased() == "entrypoint" }
        items.append(URLQueryItem(name: "entrypoint", value: tab.entryPointValue))
        components.queryItems = items
        return (components.string ?? address).replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(
            of: "%7D", with: "}")
    }

    /// Applies the format tab, facets, availability, page and support filters to a feed.
    func refine(_ start: CatalogFeed, client: CatalogClient, refinement: CatalogRefinement, tab: FormatTab?) throws
        -> BrowseResult
    {
        var feed = start
        func follow(_ href: String) throws {
            guard let url = URL(string: href) else {
                throw ShelfError(.badData, "the catalog links to an unusable address", subject: href)
            }
            feed = try client.feed(url)
        }
        if let tab, let point = feed.entryPoints.first(where: { $0.tab == tab }), !point.active || feed.activeTab != tab
        {
            try follow(point.href)
        }
        for (name, wanted) in refinement.facets {
            guard let group = feed.facetGroups.first(where: { $0.title.caseInsensitiveCompare(name) == .orderedSame })
            else {
                throw ShelfError(
                    .usage, "this page has no facet \"\(name)\"",
                    hint: feed.facetGroups.isEmpty
                        ? "It offers none." : "It offers: " + feed.facetGroups.map(\.title).joined(separator: ", "))
            }
            guard let value = group.facets.first(where: { $0.title.caseInsensitiveCompare(wanted) == .orderedSame })
            else {
                throw ShelfError(
                    .usage, "\"\(group.title)\" has no value \"\(wanted)\"",
                    hint: "Values: " + group.facets.map(\.title).joined(separator: ", "))
            }
            try follow(value.href)
        }
        var filterAvailableLocally = refinement.available
        if refinement.available {
            let availableFacet = feed.facetGroups.flatMap(\.facets).first {
                $0.title.lowercased().contains("available now")
            }
            if let availableFacet {
                if !availableFacet.active { try follow(availableFacet.href) }
                filterAvailableLocally = true
            }
        }
        let page = refinement.page
        if page > 1 {
            for number in 2...page {
                guard let next = feed.next else {
                    throw ShelfError(
                        .noInput, "there is no page \(page) of \(feed.title): the last page is \(number - 1)",
                        hint: "Ask for a page from 1 to \(number - 1) (--page N).")
                }
                try follow(next.href)
            }
        }
        var entries = feed.entries
        let before = entries.count
        if let tab { entries = entries.filter { tab.admits($0.format) } }
        if filterAvailableLocally { entries = entries.filter { $0.availability.canBorrowNow } }
        if refinement.supported { entries = entries.filter { $0.isSupported(by: openable) } }
        return BrowseResult(feed: feed, entries: entries, hidden: before - entries.count, tab: tab, page: page)
    }
}

/// A catalog page as `shelf browse --json` and `shelf catalog-search --json` print it (docs/json.md).
public struct FeedJSON: Encodable, Sendable {
    public struct Nav: Encodable, Sendable { public let title: String; public let href: String }
    public struct Lane: Encodable, Sendable {
        public let title: String; public let href: String?; public let entries: [String]
    }
    public struct Facet: Encodable, Sendable {
        public let title: String; public let active: Bool; public let count: Int?; public let href: String
    }
    public struct FacetGroup: Encodable, Sendable { public let group: String; public let facets: [Facet] }
    public struct Tab: Encodable, Sendable {
        public let format: String; public let title: String; public let active: Bool
    }
    public let title: String
    public let url: String
    public let kind: String
    public let format: String?
    public let formats: [Tab]
    public let navigation: [Nav]
    public let lanes: [Lane]
    public let facets: [FacetGroup]
    /// All the page's titles; the browser app's answer holds one window of them (`total`, `nextCursor`).
    public var entries: [EntryJSON]
    public let hidden: Int
    public let page: Int
    public let next: String?
    public let previous: String?
    public let skipped: [String]
    /// The browser app's: how many titles the page has (`entries` then holds a window of them) and the cursor of
    /// the next window; the library searched, named as the app names it (the feed's own title may be "Search
    /// results"). Absent from the command line's document.
    public var total: Int?
    public var nextCursor: String?
    public var library: String?
    /// The browser app's: how many titles, for which words, in which tab (`CatalogSummary`), as the page says it.
    /// Absent from the command line's document.
    public var said: String?

    public init(_ result: BrowseResult, openable: Set<String>) {
        let feed = result.feed
        title = feed.title
        url = feed.url
        kind = feed.kind.rawValue
        format = result.tab?.words
        formats = feed.entryPoints.map {
            .init(
                format: $0.tab.rawValue, title: $0.tab.words,
                active: $0.tab == result.tab || ($0.active && result.tab == nil))
        }
        navigation = feed.navigation.map { .init(title: $0.title ?? $0.href, href: $0.href) }
        lanes = feed.lanes.map { .init(title: $0.title, href: $0.href, entries: $0.entryIDs) }
        facets = feed.facetGroups.map { group in
            .init(
                group: group.title,
                facets: group.facets.map {
                    .init(title: $0.title, active: $0.active, count: $0.count, href: $0.href)
                })
        }
        entries = result.entries.map { EntryJSON($0, openable: openable) }
        hidden = result.hidden
        page = result.page
        next = feed.next?.href
        previous = feed.previous?.href
        skipped = feed.skipped
    }
}
