import Foundation
import Host

/// The catalog in the API: a page of a library's catalog with its format tab, facets and lanes, a search, and one
/// title's details; the same session calls and documents (docs/json.md, Feed and Entry) as `shelf browse`,
/// `shelf catalog-search` and `shelf book`. Each asks the library over the network on the request's own thread, so
/// a slow library keeps only that request waiting.
enum CatalogAPI {
    static func install(in app: WebApp) {
        let router = app.router

        router.add("GET", "/api/catalog") { request in
            // a bad limit or cursor is refused before the library is asked
            _ = try Paging.window(count: 0, for: request)
            let format = request.query["format"]
            let formats = ["all", "ebook", "audiobook"]
            if let format, !formats.contains(format) {
                throw WebError(
                    400, RequestProblem.notOneOf(name: "format", given: format, choices: formats))
            }
            var refinement = CatalogRefinement(
                available: request.query["available"] == "true",
                page: try request.integer("page", in: 1...10_000) ?? 1)
            if let facet = request.query["facet"], !refinement.addFacet(facet) {
                throw WebError(400, RequestProblem.notAFacet(given: facet))
            }
            let library = try app.library()
            let account = request.query["account"].flatMap { $0.isEmpty ? nil : $0 }
            // A first run: the page invites the patron to add a library rather than showing a failure.
            if try library.accountDocuments().isEmpty {
                throw WebError(409, Invitation.noLibraryYet, kind: "no-library-yet")
            }
            let result: BrowseResult
            let query = request.query["q"].flatMap { $0.isEmpty ? nil : $0 }
            if let query {
                result = try library.search(query, url: nil, account: account, format: format, refinement: refinement)
            } else {
                result = try library.browse(
                    request.query["lane"], account: account, format: format, refinement: refinement)
            }
            var document = FeedJSON(result, openable: library.openable)
            // The entries come a page at a time like every list; the document's own `next` is the library's next page.
            let window = try Paging.window(count: document.entries.count, for: request)
            document.entries = Array(document.entries[window.range])
            (document.total, document.nextCursor) = (window.total, window.next)
            // The feed's title is the page's ("Search results"); the library searched is named apart.
            document.library = try LibraryNames.current(library, account: account)
            // The tab asked for, else the one the library's feed marks.
            let tab =
                format.flatMap(FormatTab.init(rawValue:))
                ?? document.formats.first(where: \.active).flatMap { FormatTab(rawValue: $0.format) } ?? .all
            document.said =
                CatalogSummary(query: query, count: window.total, tab: tab, availableNow: refinement.available)
                .words(for: .browser).line
            return .json(document: document)
        }

        // A title's details as the library says them now (availability asked again); when the library does not
        // answer, what shelf saw before, marked `libraryAnswered: false` so the page does not pass it off as now.
        router.add("GET", "/api/book") { request in
            guard let id = request.query["id"], !id.isEmpty else {
                throw WebError(400, RequestProblem.whichTitle)
            }
            let library = try app.library()
            let circulation = try library.circulation(
                account: request.query["account"].flatMap { $0.isEmpty ? nil : $0 })
            let seen = try circulation.entry(id)
            let now = circulation.now(seen)
            var document = EntryJSON(now.entry, openable: library.openable, full: true)
            document.libraryAnswered = now.answered
            document.availabilityNote = now.note
            document.account = circulation.account.id.isEmpty ? nil : circulation.account.id
            // What it offers is the host's (TitleOffer): a title gone offers nothing, a physical copy's hold no Get.
            document.offering(circulation.offer(now))
            let onLoan = now.entry.availability.state == .loaned
            // The loan's download (or an open-access title's), on this computer: Read or Listen opens it.
            let downloaded = try library.loans(account: circulation.account.id).first { $0.entry.id == seen.id }
                .flatMap(\.bookID).flatMap { try app.bookshelf().book(id: $0) }
            let wish = try library.storedWishes().first {
                $0.entryID == seen.id && ($0.accountID == nil || $0.accountID == circulation.account.id)
            }
            return .json(
                document: WithReturnQuestion(
                    document: document, returnQuestion: onLoan ? ReturnQuestion(title: seen.title) : nil,
                    shelfBook: downloaded.map(ShelfBookJSON.init), wish: wish.map { .init(id: $0.id) }))
        }
    }
}
