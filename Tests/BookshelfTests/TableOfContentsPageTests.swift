import Foundation
import Host
import TestSupport
import XCTest

/// Issue 19, item 1: an entry of the table of contents that points inside a file (`chapter.xhtml#sec3`) lands on
/// the page that shows the element it names, not on the file's first page; the status line names the entry whose
/// range holds the page.
final class TableOfContentsPageTests: XCTestCase {
    /// For every corpus book, the page of each entry (`read --toc 0`, `read --toc N`) shows the first words of the
    /// element the entry points at, read from the book's XHTML with Foundation's parser; the status line of a page
    /// where one entry starts names that entry.
    func testEveryEntryOfEveryCorpusBookShowsItsTarget() throws {
        var checked = 0, books = 0
        var skipped: [String: Int] = [:]
        var failures: [String] = []
        for url in try CorpusReading.books() {
            let (_, session) = try CorpusReading.session(url)
            books += 1
            let rootFolder = url.path
            var starts: [Int: Int] = [:]
            for entry in session.tableOfContents { if let p = entry.page { starts[p, default: 0] += 1 } }
            for entry in session.tableOfContents {
                guard let page = entry.page else {
                    skipped["no page (outside the reading order)", default: 0] += 1; continue
                }
                XCTAssertEqual(
                    try session.tocPage(entry.number), page, "\(url.lastPathComponent) --toc \(entry.number)")
                let parts = entry.href.split(separator: "#", maxSplits: 1).map(String.init)
                let entryName = parts[0].removingPercentEncoding ?? parts[0]
                guard let data = CorpusReading.entry(entryName, in: rootFolder) else {
                    skipped["its file is not in the archive", default: 0] += 1
                    continue
                }
                let fragment = parts.count == 2 ? parts[1].removingPercentEncoding : nil
                let target = ElementWords.read(data, id: fragment)
                guard target.found else {
                    skipped["Foundation's parser finds no such element (or cannot read the file)", default: 0] += 1;
                    continue
                }
                let wanted = String(CorpusReading.letters(target.words).unicodeScalars.prefix(16))
                guard !wanted.isEmpty else { skipped["the element has no words after it", default: 0] += 1; continue }
                let shown = try session.page(page)
                checked += 1
                if !CorpusReading.letters(shown.text).contains(wanted) {
                    failures.append(
                        "\(url.lastPathComponent): entry \(entry.number) “\(entry.title)” (\(entry.href)) → page \(page), which does not show “\(target.words.prefix(60))”"
                    )
                } else if starts[page] == 1, shown.chapter != entry.title {
                    // The only entry starting on this page: the status line names it.
                    failures.append(
                        "\(url.lastPathComponent): page \(page) is entry \(entry.number)’s, but its status names “\(shown.chapter ?? "-")”"
                    )
                }
            }
        }
        print("table of contents entries checked: \(checked) in \(books) books; skipped: \(skipped)")
        XCTAssertEqual(books, 55)
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertTrue(
            failures.isEmpty, "\(failures.count) entries land elsewhere:\n" + failures.joined(separator: "\n"))
    }

    /// One file of three sections, the table of contents pointing at each (`sections.xhtml#s2`): `read --toc 0
    /// --json` gives each its own page, `read --toc N` goes there and shows the section's heading, and on every page
    /// the status line names the section the page is in (it named the last section on every page of the file).
    func testEntriesInsideOneFileHaveTheirOwnPagesAndStatus() throws {
        let shelf = try ShelfProcess()
        defer { shelf.cleanUp() }
        let path = shelf.home.appendingPathComponent("sections.epub").path
        let sections = (1...3).map { s in
            (id: "s\(s)", title: "Section \(s) of the log", paragraphs: (1...9).map { FixtureBooks.paragraph(s, $0) })
        }
        try FixtureBooks.writeSections(to: path, sections: sections)
        func run(_ arguments: [String]) throws -> ShelfProcess.Result {
            let result = try shelf.run(arguments)
            XCTAssertEqual(result.status, 0, "shelf \(arguments.joined(separator: " ")): \(result.stderr)")
            return result
        }
        _ = try run(["add", path])
        let toc = try XCTUnwrap(try run(["read", "sections", "--toc", "0", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(toc.map { $0["title"] as? String }, sections.map(\.title))
        let pages = toc.compactMap { $0["page"] as? Int }
        XCTAssertEqual(pages.count, 3)
        XCTAssertEqual(pages, pages.sorted())
        XCTAssertEqual(Set(pages).count, 3, "each section has its own page: \(pages)")
        var ranges: [(Int, String)] = []
        for (n, section) in sections.enumerated() {
            let page = try XCTUnwrap(
                try run(["read", "sections", "--toc", "\(n + 1)", "--json"]).json() as? [String: Any])
            XCTAssertEqual(page["page"] as? Int, pages[n], "--toc \(n + 1) goes to the page --toc 0 lists")
            XCTAssertTrue(
                (page["text"] as? String ?? "").contains(section.title), "page \(pages[n]) shows “\(section.title)”")
            ranges.append((pages[n], section.title))
        }
        let total = try XCTUnwrap(try run(["read", "sections", "--json"]).json() as? [String: Any])["pages"] as? Int
        for number in pages[0]...(total ?? 0) {
            let page = try XCTUnwrap(
                try run(["read", "sections", "--goto", "\(number)", "--json"]).json() as? [String: Any])
            let expected = ranges.last { $0.0 <= number }?.1
            XCTAssertEqual(page["chapter"] as? String, expected, "the status line of page \(number)")
        }
    }
}
