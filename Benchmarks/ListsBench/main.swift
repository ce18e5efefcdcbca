import Foundation
import Host
import ShelfLibrary
import ShelfPlugins

// Issue 7's reading-list benchmark, driven by bench/readinglists/run.sh. Prints figures; asserts nothing.
//
//   shelf-lists-bench generate-csv COUNT OUT.csv     a Goodreads library export (31 columns) of COUNT rows
//   shelf-lists-bench import RUNS FILE.csv           `shelf lists connect goodreads` + `shelf lists pull`, through the
//                                                    Goodreads plugin found beside this executable, RUNS times
//   shelf-lists-bench match RUNS WISHES CATALOG      WISHES wishes matched against CATALOG entries already in the database
//
// The CSV tokeniser is the Goodreads plugin's own source (GoodreadsCSVTokenizer.swift is a link to
// Plugins/Goodreads/CSV.swift), so the export's parse time is reported apart from the rest of the import.

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data((text + "\n").utf8))
    exit(64)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func seconds(_ ns: UInt64) -> Double { Double(ns) / 1e9 }
/// This process's CPU time: the machine may be shared, and wall time then counts others' work too.
func cpuNow() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// The best wall and CPU times over several runs: `start()`, the work, `stop()`.
struct Best {
    var wall: UInt64 = .max
    var cpu: UInt64 = .max
    var startWall: UInt64 = 0
    var startCPU: UInt64 = 0
    mutating func start() {
        startWall = now()
        startCPU = cpuNow()
    }
    mutating func stop() {
        let w: UInt64 = now() - startWall
        let c: UInt64 = cpuNow() - startCPU
        wall = min(wall, w)
        cpu = min(cpu, c)
    }
    var text: String {
        let w: Double = seconds(wall)
        let c: Double = seconds(cpu)
        return String(format: "%.3f s (CPU %.3f s)", w, c)
    }
}

let words = ["river", "lantern", "harbour", "winter", "garden", "signal", "orchard", "compass", "meadow", "archive",
             "voyage", "ember", "quarry", "atlas", "thistle", "beacon"]
let accented = ["Élan", "Café", "Noël", "Señor", "Fjörd", "Über", "Crème", "Año"]

/// A valid ISBN-13 for a number: 978 + nine digits + check digit.
func isbn13(_ n: Int) -> String {
    let body = "978" + String(format: "%09d", n % 1_000_000_000)
    var sum = 0
    for (offset, digit) in body.utf8.enumerated() { sum += Int(digit - 0x30) * (offset % 2 == 0 ? 1 : 3) }
    return body + String((10 - sum % 10) % 10)
}

func csvField(_ text: String) -> String {
    text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
}

// MARK: Goodreads export

func goodreadsExport(rows: Int) -> String {
    var out = "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,"
        + "Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,"
        + "Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Recommended For,Recommended By,Owned Copies,"
        + "Original Purchase Date,Original Purchase Location,Condition,Condition Description,BCID\n"
    out.reserveCapacity(rows * 420)
    for i in 0..<rows {
        let first = words[(i * 7) % 16].capitalized, last = words[(i * 3) % 16].capitalized + (i % 9 == 0 ? "é" : "")
        let title = "The \(words[i % 16].capitalized) of \(words[(i / 16) % 16].capitalized) \(i)"
            + (i % 5 == 0 ? " (\(words[i % 7].capitalized) Saga, #\(i % 12 + 1))" : "")
        let shelf = ["read", "to-read", "currently-reading", "read"][i % 4]
        let isbn = isbn13(i)
        let ten = i % 3 == 0 ? "" : "=\"\(String(isbn.dropFirst(3).prefix(9)))X\""
        let review = i % 6 == 0 ? "Loved it, \"really\".<br/>\nSecond line, with commas, of the review." : ""
        let fields = [
            "\(100000 + i)", title, "\(first) \(last)", "\(last), \(first)", i % 8 == 0 ? "Ann Other, Bea Second" : "",
            ten.isEmpty ? "=\"\"" : ten, "=\"\(isbn)\"", "\(shelf == "read" ? 1 + i % 5 : 0)", "4.\(i % 100)",
            "Example Press", i % 2 == 0 ? "Paperback" : "Kindle Edition", "\(100 + i % 500)", "\(1990 + i % 35)", "\(1950 + i % 70)",
            shelf == "read" ? "20\(10 + i % 15)/\(String(format: "%02d", 1 + i % 12))/\(String(format: "%02d", 1 + i % 28))" : "",
            "20\(10 + i % 15)/\(String(format: "%02d", 1 + (i + 3) % 12))/\(String(format: "%02d", 1 + (i + 5) % 28))",
            shelf == "read" ? (i % 2 == 0 ? "fiction, favourites" : "") : shelf,
            shelf == "read" ? (i % 2 == 0 ? "fiction (#\(i)), favourites (#\(i / 2))" : "") : "\(shelf) (#\(i))",
            shelf, review, "", "", shelf == "read" ? "1" : "0", "", "", "0", "", "", "", "", "",
        ]
        out += fields.map(csvField).joined(separator: ",") + "\n"
    }
    return out
}

// MARK: Catalog and wishes

func catalogFeed(range: Range<Int>) -> String {
    var text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:schema="http://schema.org/"
              xmlns:dcterms="http://purl.org/dc/terms/">
          <id>https://library.example.org/all</id>
          <title>Generated catalog</title>
          <updated>2026-01-01T00:00:00Z</updated>

        """
    text.reserveCapacity(range.count * 1200)
    for i in range {
        // Even entries are identified by ISBN; odd ones by the library's own id (matched by title and author).
        let id = i % 2 == 0 ? "urn:isbn:\(isbn13(i))" : "urn:librarysimplified.org/terms/id/Bench%20ID/\(i)"
        let copies = 1 + i % 5, free = i % 3 == 0 ? 0 : i % copies
        text += """
              <entry>
                <id>\(id)</id>
                <title>\(catalogTitle(i))</title>
                <author><name>\(catalogAuthor(i))</name></author>
                <dcterms:language>en</dcterms:language>
                <updated>2026-01-01T00:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition/borrow" href="https://library.example.org/works/\(i)/borrow" type="application/atom+xml;type=entry;profile=opds-catalog"><opds:indirectAcquisition type="application/epub+zip"/><opds:availability status="\(free > 0 ? "available" : "unavailable")"/><opds:holds total="\(free > 0 ? 0 : i % 7)"/><opds:copies total="\(copies)" available="\(free)"/></link>
              </entry>

            """
    }
    return text + "</feed>\n"
}

func catalogTitle(_ i: Int) -> String {
    "\(i % 11 == 0 ? accented[i % 8] + " " : "")The \(words[i % 16].capitalized) of \(words[(i / 16) % 16].capitalized) \(i)"
}
func catalogAuthor(_ i: Int) -> String { "\(words[(i * 7) % 16].capitalized) \(words[(i * 3) % 16].capitalized)" }

/// A quarter of the wishes by ISBN, a quarter by a title and author written differently (case, punctuation,
/// diacritics, "Surname, First"), a quarter by an unknown ISBN whose title matches, a quarter matching nothing.
func wishes(count: Int, catalog: Int) -> [LibraryDatabase.NewWish] {
    (0..<count).map { w in
        let even = (w * 2) % catalog, odd = (w * 2 + 1) % catalog
        switch w % 4 {
        case 0:
            return .init(source: "bench", title: catalogTitle(even), authors: [catalogAuthor(even)], isbn: isbn13(even))
        case 1:
            let title = catalogTitle(odd).uppercased().folding(options: .diacriticInsensitive, locale: nil) + ": A Novel"
            let author = catalogAuthor(odd).split(separator: " ").reversed().joined(separator: ", ")
            return .init(source: "bench", title: title, authors: [author], isbn: nil)
        case 2:
            return .init(source: "bench", title: catalogTitle(odd) + " (Book \(w))", authors: [catalogAuthor(odd)], isbn: isbn13(900_000_000 + w))
        default:
            return .init(source: "bench", title: "A Book Nobody Has \(w)", authors: ["Nobody"], isbn: isbn13(800_000_000 + w))
        }
    }
}

func temporaryFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-lists-bench-\(getpid())-\(name)")
    try? FileManager.default.removeItem(at: folder)  // a scratch folder that could not go only costs /tmp space
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { fail("usage: shelf-lists-bench generate-csv|import|match ...") }

switch mode {
case "generate-csv":
    guard arguments.count == 3, let count = Int(arguments[1]) else { fail("usage: shelf-lists-bench generate-csv COUNT OUT.csv") }
    try Data(goodreadsExport(rows: count).utf8).write(to: URL(fileURLWithPath: arguments[2]))

case "import":
    guard arguments.count == 3, let runs = Int(arguments[1]), runs > 0 else { fail("usage: shelf-lists-bench import RUNS FILE.csv") }
    let file = URL(fileURLWithPath: arguments[2]).standardizedFileURL.path
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
    var tokenise = Best(), pluginPull = Best(), importing = Best()
    var rows = 0, entries = 0, wishes = 0
    for _ in 0..<runs {
        tokenise.start()
        let table: [[String]] = try CSV.parse(data)
        tokenise.stop()
        rows = table.count - 1
    }
    for run in 0..<runs {
        let home = try temporaryFolder("import-\(run)")
        defer { try? FileManager.default.removeItem(at: home) }  // scratch: at worst left in /tmp
        var environment = ProcessInfo.processInfo.environment
        environment["SHELF_HOME"] = home.path
        environment["SHELF_PLUGIN_PATH"] = nil
        let library = try Shelf(environment: environment).library()
        let lists = library.readingLists()
        // The plugin's whole pull (CSV parse, mapping, JSON across the ABI, the host's decoding), no database: the
        // plugin the Shelf finds (its search path), loaded apart from the session.
        let registry = PluginRegistry(searchPath: .standard(explicit: [], environment: environment), directories: nil, environment: environment)
        let connection = try Connector.find(service: "goodreads", in: registry).connect(settings: ["file": file])
        pluginPull.start()
        let pulled: PullResult = try connection.pull()
        pluginPull.stop()
        entries = pulled.entries.count
        // What `shelf lists connect goodreads --set file=...` and `shelf lists pull` do, stored in the database.
        importing.start()
        _ = try lists.connect(service: "goodreads", settings: ["file": file], secrets: [:], authorize: false, openBrowser: { _ in })
        let outcome: [ReadingListPullOutcome] = try lists.pull(service: "goodreads")
        importing.stop()
        wishes = outcome.first?.newWishes ?? 0
        let stored = try library.readingListEntries(service: "goodreads", shelf: nil).count
        guard stored == entries else { fail("stored \(stored) entries, pulled \(entries)") }
    }
    print("CSV parse (the plugin's tokeniser, \(rows) rows, \(data.count) bytes): \(tokenise.text), best of \(runs)")
    print("plugin pull (parse, map to entries, JSON across the ABI, decoded by the host): \(pluginPull.text), best of \(runs)")
    print("import (connect + pull: \(entries) entries stored, \(wishes) wishes added): \(importing.text), best of \(runs); target < 1 s")

case "match":
    guard arguments.count == 4, let runs = Int(arguments[1]), runs > 0, let count = Int(arguments[2]), let catalog = Int(arguments[3])
    else { fail("usage: shelf-lists-bench match RUNS WISHES CATALOG") }
    // The catalog as a library serves it: pages of 5,000 entries, each parsed as `shelf browse` parses a feed.
    let feedURL = URL(string: "https://library.example.org/all")!
    var parsed: [CatalogEntry] = []
    let start = now()
    for page in stride(from: 0, to: catalog, by: 5000) {
        let data = Data(catalogFeed(range: page..<min(catalog, page + 5000)).utf8)
        parsed += try CatalogDocument.parse(data, url: URL(string: "\(feedURL.absoluteString)?page=\(page / 5000 + 1)")!).entries
    }
    print(String(format: "setup: %d catalog entries generated and parsed in %.3f s (not timed below)", parsed.count, seconds(now() - start)))
    var first = Best(), again = Best()
    var matched = 0, available = 0, notices = 0
    for run in 0..<runs {
        let folder = try temporaryFolder("match-\(run)")
        defer { try? FileManager.default.removeItem(at: folder) }  // scratch: at worst left in /tmp
        let database = try LibraryDatabase(path: folder.appendingPathComponent("library.sqlite3").path)
        try database.upsertAccount(AccountRecord(id: "bench", title: "Bench Library", catalogURL: feedURL.absoluteString,
                                                 shelfURL: feedURL.absoluteString))
        try database.rememberEntries(parsed, accountID: "bench", feedURL: feedURL.absoluteString)
        try database.addWishes(wishes(count: count, catalog: catalog))
        first.start()
        let announced: [WishNotice] = try WishList(database: database).check()
        first.stop()
        notices = announced.count
        again.start()
        _ = try WishList(database: database).check()
        again.stop()
        let list: [Wish] = try database.wishes()
        matched = list.filter { $0.entryID != nil }.count
        available = list.filter { $0.available }.count
        database.close()
    }
    print("match \(count) wishes against \(catalog) catalog entries (first check: \(matched) matched, \(available) available, \(notices) notices stored): \(first.text), best of \(runs); target < 1 s")
    print("match again (steady state, nothing new to announce): \(again.text), best of \(runs)")

default:
    fail("unknown mode \(mode)")
}
