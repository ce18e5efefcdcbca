import Foundation
import PluginKit

/// The library export CSV, by header name (both generations: 24 and 31 columns).
enum GoodreadsCSV {
    static func entries(_ data: Data, name: String) throws -> [ReadingListEntry] {
        let rows: [[String]]
        do { rows = try CSV.parse(data) } catch { throw PluginFailure.badData("\(name): \(error)", at: name) }
        guard let header = rows.first else { throw PluginFailure.badData("\(name) is empty", at: name) }
        var column: [String: Int] = [:]
        for (i, h) in header.enumerated() { column[h.trimmingCharacters(in: .whitespaces)] = i }
        guard column["Title"] != nil, column["Author"] != nil || column["ISBN"] != nil else {
            throw PluginFailure.badData(
                "\(name) is not a Goodreads library export: its first line has no Title and Author columns",
                at: "line 1")
        }
        func value(_ row: [String], _ key: String) -> String? {
            guard let i = column[key], i < row.count else { return nil }
            let v = Text.trim(row[i])
            return v.isEmpty ? nil : v
        }
        var out: [ReadingListEntry] = []
        out.reserveCapacity(rows.count)
        for row in rows.dropFirst() {
            // A blank line is no row; a row without a title is passed on with an empty one, for the host to skip and
            // count (the patron is told how many rows were skipped and why).
            guard row.contains(where: { !Text.trim($0).isEmpty }) else { continue }
            let title = value(row, "Title").map(Text.collapse) ?? ""
            var ids: [String: String] = [:]
            if let id = value(row, "Book Id") { ids["goodreads"] = id }
            if let isbn = value(row, "ISBN").flatMap(Text.isbn) { ids[isbn.count == 13 ? "isbn13" : "isbn10"] = isbn }
            if let isbn = value(row, "ISBN13").flatMap(Text.isbn) { ids[isbn.count == 13 ? "isbn13" : "isbn10"] = isbn }
            var authors: [String] = []
            if let a = value(row, "Author") { authors.append(Text.collapse(a)) }
            if let more = value(row, "Additional Authors") {
                authors += more.split(separator: ",").map { Text.collapse(String($0)) }.filter { !$0.isEmpty }
            }
            let exclusive = value(row, "Exclusive Shelf").map(Text.shelf) ?? "read"
            var shelves = [exclusive]
            if let list = value(row, "Bookshelves") {
                for s in list.split(separator: ",") {
                    let n = s.trimmingCharacters(in: .whitespaces)
                    if !n.isEmpty && !shelves.contains(n) { shelves.append(n) }
                }
            }
            let rating = value(row, "My Rating").flatMap { Int($0) }.flatMap { (1...5).contains($0) ? Double($0) : nil }
            out.append(
                ReadingListEntry(
                    identifiers: ids, title: title, authors: authors, shelf: exclusive, shelves: shelves,
                    dateAdded: value(row, "Date Added").flatMap(Text.date),
                    dateRead: value(row, "Date Read").flatMap(Text.date), rating: rating))
        }
        return out
    }

    static func shelves(of entries: [ReadingListEntry]) -> [ReadingListShelf] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for e in entries {
            for s in e.shelves ?? [e.shelf] {
                if counts[s] == nil { order.append(s) }
                counts[s, default: 0] += 1
            }
        }
        return order.map { ReadingListShelf(id: $0, name: $0, count: counts[$0]) }
    }

    /// The columns Goodreads' import (https://www.goodreads.com/review/import) reads.
    static let importHeader = [
        "Book Id", "Title", "Author", "ISBN", "ISBN13", "My Rating", "Date Read", "Date Added",
        "Exclusive Shelf", "Bookshelves"
    ]

    static func importRow(_ e: ReadingListEntry) -> [String] {
        let slash = { (d: String?) in (d.map { String($0.prefix(10)) } ?? "").replacingOccurrences(of: "-", with: "/") }
        return [
            e.identifiers["goodreads"] ?? "", e.title, e.authors.first ?? "",
            e.isbn10.map { "=\"\($0)\"" } ?? "", e.isbn13.map { "=\"\($0)\"" } ?? "",
            e.rating.map { String(Int($0.rounded())) } ?? "0", slash(e.dateRead), slash(e.dateAdded), e.shelf, e.shelf
        ]
    }

    static func importKey(title: String, author: String, isbn: String?, shelf: String) -> String {
        if let isbn { return "isbn:\(isbn)|\(shelf)" }
        return "t:\(title.lowercased())|\(author.lowercased())|\(shelf)"
    }
}

/// review/list_rss: RSS 2.0 items with Goodreads' own elements (FORMATS.md §6).
enum GoodreadsRSS {
    static func entries(_ data: Data, shelf: String) throws -> [ReadingListEntry] {
        let root: XNode
        do { root = try XNode.parse(data, what: "the Goodreads shelf feed") } catch let f as XMLFailure {
            throw PluginFailure.badData(f.description)
        }
        guard root.name == "rss", let channel = root.child("channel") else {
            throw PluginFailure.badData("the Goodreads shelf feed is not RSS (root element \(root.name))")
        }
        let exclusive = Text.shelf(shelf)
        return channel.all("item").compactMap { item in
            let title = item.string("title") ?? ""  // without one, the host skips the entry and says so
            var ids: [String: String] = [:]
            if let id = item.string("book_id") ?? item.child("book")?.attributes["id"] { ids["goodreads"] = id }
            if let isbn = item.string("isbn").flatMap(Text.isbn) { ids[isbn.count == 13 ? "isbn13" : "isbn10"] = isbn }
            if let isbn = item.string("isbn13").flatMap(Text.isbn) { ids["isbn13"] = isbn }
            var shelves = [exclusive]
            for s in (item.string("user_shelves") ?? "").split(separator: ",") {
                let n = s.trimmingCharacters(in: .whitespaces)
                if !n.isEmpty && !shelves.contains(n) { shelves.append(n) }
            }
            let rating = item.string("user_rating").flatMap { Int($0) }.flatMap {
                (1...5).contains($0) ? Double($0) : nil
            }
            return ReadingListEntry(
                identifiers: ids, title: Text.collapse(title),
                authors: item.string("author_name").map { [Text.collapse($0)] } ?? [],
                shelf: exclusive, shelves: shelves,
                dateAdded: item.string("user_date_added").flatMap(Text.date),
                dateRead: item.string("user_read_at").flatMap(Text.date), rating: rating)
        }
    }
}

/// The legacy XML API's documents (FORMATS.md §6; sosedoff/goodreads fixtures).
enum GoodreadsXML {
    static func shelves(_ root: XNode) throws -> [ReadingListShelf] {
        guard let list = root.find("shelves") else {
            throw PluginFailure.badData("Goodreads' shelf list has no <shelves>")
        }
        return list.all("user_shelf").compactMap { s in
            guard let name = s.string("name") else { return nil }
            return ReadingListShelf(
                id: s.string("id") ?? name, name: name, count: s.string("book_count").flatMap { Int($0) })
        }
    }

    /// One page of review/list: its entries, and the page's end and the total. Every answer of Goodreads that holds the
    /// patron's reviews is read the same way: review/list (`<reviews>`), review/show and the review create answer (one
    /// `<review>`), owned_books/user (`<owned_book>`: a `<book>` beside its `<review>`). Reviews inside a `<book>`
    /// (book/show's other readers) are not the patron's and are left alone.
    static func reviews(_ root: XNode, requested: String? = nil) throws -> ([ReadingListEntry], Int, Int) {
        var pairs: [(book: XNode, review: XNode)] = []
        var list: XNode?
        func walk(_ node: XNode) {
            for c in node.children {
                switch c.name {
                case "book": continue
                case "review":
                    if let book = c.child("book") { pairs.append((book, c)) }
                case "owned_book":
                    if let book = c.child("book") { pairs.append((book, c.child("review") ?? c)) }
                case "reviews":
                    if list == nil { list = c }
                    walk(c)
                default:
                    walk(c)
                }
            }
        }
        if root.name == "review", let book = root.child("book") { pairs.append((book, root)) } else { walk(root) }
        guard list != nil || !pairs.isEmpty else {
            throw PluginFailure.badData("Goodreads' review list has no <reviews>")
        }
        let end = Int(list?.attributes["end"] ?? "") ?? pairs.count
        let total = Int(list?.attributes["total"] ?? "") ?? pairs.count
        let entries: [ReadingListEntry] = pairs.compactMap { pair in
            let (book, review) = pair
            let title = book.string("title") ?? ""  // without one, the host skips the entry and says so
            var ids: [String: String] = [:]
            if let id = book.string("id") { ids["goodreads"] = id }
            if let isbn = book.string("isbn").flatMap(Text.isbn) { ids[isbn.count == 13 ? "isbn13" : "isbn10"] = isbn }
            if let isbn = book.string("isbn13").flatMap(Text.isbn) { ids["isbn13"] = isbn }
            let authors = (book.child("authors")?.all("author") ?? []).compactMap {
                $0.string("name").map(Text.collapse)
            }
            let shelfNodes = review.child("shelves")?.all("shelf") ?? []
            let names = shelfNodes.compactMap { $0.attributes["name"] }
            // The exclusive shelf: flagged as such, else a well-known exclusive name, else the shelf asked for.
            let known = ["read", "currently-reading", "to-read"]
            let exclusive =
                shelfNodes.first { $0.attributes["exclusive"] == "true" }?.attributes["name"].map(Text.shelf)
                ?? names.map(Text.shelf).first { known.contains($0) }
                ?? requested.map(Text.shelf) ?? names.first.map(Text.shelf) ?? "read"
            var shelves = [exclusive]
            for n in names where !shelves.contains(n) && Text.shelf(n) != exclusive { shelves.append(n) }
            let rating = review.string("rating").flatMap { Int($0) }.flatMap { (1...5).contains($0) ? Double($0) : nil }
            return ReadingListEntry(
                identifiers: ids, title: Text.collapse(title), authors: authors, shelf: exclusive, shelves: shelves,
                dateAdded: review.string("date_added").flatMap(Text.date),
                dateRead: review.string("read_at").flatMap(Text.date), rating: rating)
        }
        return (entries, end, total)
    }

    /// A write's answer (shelf/add_to_shelf, shelf/add_books_to_shelves): nil when it reports success, else why not.
    /// An answer that is not XML (or empty) is taken at its HTTP status.
    static func writeFailure(_ body: Data) -> String? {
        // As the comment above says: an answer that is not XML is taken at its HTTP status, which was checked.
        guard body.contains(UInt8(ascii: "<")), let root = try? XNode.parse(body, what: "the answer") else {
            return nil
        }
        if let result = root.string("result"), result.lowercased() != "ok" {
            return "Goodreads answered: \(Text.collapse(result))"
        }
        if let error = root.string("error") { return "Goodreads answered: \(Text.collapse(error))" }
        return nil
    }

    /// One entry per book: a book listed under several shelves keeps its exclusive shelf.
    static func merge(_ entries: [ReadingListEntry]) -> [ReadingListEntry] {
        var seen: [String: Int] = [:]
        var out: [ReadingListEntry] = []
        for e in entries {
            guard let id = e.identifiers["goodreads"] else { out.append(e); continue }
            if let i = seen[id] {
                for s in e.shelves ?? [] where !(out[i].shelves ?? []).contains(s) {
                    out[i].shelves = (out[i].shelves ?? []) + [s]
                }
            } else {
                seen[id] = out.count
                out.append(e)
            }
        }
        return out
    }
}
