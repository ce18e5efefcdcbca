import ShelfLibrary
import ShelfCore
import ShelfValues
import Foundation
import Readium

extension BookReader {
    /// The passage at page `number`, at `locator`, or (neither) on the page the patron is on.
    public func share(_ book: ShelfBook, page number: Int? = nil, locator given: Locator? = nil) throws -> SharedPassage
    {
        let session = try session(book, width: 72)
        var notes: [String] = []
        let pageNumber: Int
        if let given {
            switch session.resolve(given) {
            case .page(let p): pageNumber = p
            case .lost(let reason):
                throw ShelfError(
                    .badData, "the locator cannot be found in this book: \(reason)", subject: book.book.title)
            }
        } else {
            pageNumber = try number ?? currentPage(session, notes: &notes)
        }
        let page = try session.page(pageNumber)
        let passage = try session.passage(page: pageNumber, from: given?.text)
        var locator = given ?? page.locator
        if locator.type.isEmpty { locator.type = page.locator.type }
        if locator.locations.position == nil { locator.locations.position = page.number }
        if locator.text?.highlight == nil { locator.text = page.locator.text }
        let link = try bookshelf.catalogLink(for: book).map {
            $0 + "#locator=" + Self.fragmentEncode(locator.jsonString())
        }
        return SharedPassage(book: book, page: page, passage: passage, locator: locator, link: link)
    }

    static func fragmentEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~!$'()*,;:@/?")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension Bookshelf {
    /// The catalog's web page (or entry document) for a book that came from a catalog.
    public func catalogLink(for book: ShelfBook) throws -> String? {
        if let link = book.link { return link }
        let rows = try database.connection.query(
            """
            SELECT entry FROM loans WHERE 'catalog:' || account_id || ':' || entry_id = ?
            UNION ALL SELECT entry FROM catalog_entries WHERE 'catalog:' || account_id || ':' || entry_id = ?
            """, [book.book.id, book.book.id])
        for row in rows {
            // Only for a link to share: an entry that cannot be read gives none, and the passage is shared without it.
            guard
                let entry = try? JSONDecoder().decode(
                    CatalogEntry.self, from: Data((try row.get("entry") as String).utf8))
            else { continue }
            if let link = Self.webLink(entry) { return link }
        }
        return nil
    }

    static func webLink(_ entry: CatalogEntry) -> String? {
        let alternate = entry.links.first { $0.rel == "alternate" && ($0.type ?? "").contains("html") }
        let any = alternate ?? entry.selfLink ?? entry.links.first { $0.rel == "alternate" || $0.rel == "self" }
        if let href = any?.href { return href }
        return entry.id.hasPrefix("http://") || entry.id.hasPrefix("https://") ? entry.id : nil
    }
}
