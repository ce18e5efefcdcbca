import Foundation
import Host
import ShelfLibrary
import ShelfCore

// Issue 5's catalog benchmark, driven by bench/catalog/run.sh: OPDS 1 parsing (the same files feedparser reads in
// the same run) and a sync of a large loans feed into a fresh library database. Prints figures; asserts nothing.
//
//   shelf-catalog-bench generate COUNT OUT.xml          a Palace-style acquisition feed of COUNT entries
//   shelf-catalog-bench generate-loans COUNT OUT.xml    a loans feed of COUNT loans (due dates, fulfil links)
//   shelf-catalog-bench parse PASSES FILE...            every file parsed once per pass; the best pass is reported
//   shelf-catalog-bench fetch RUNS URL                  the feed at URL fetched over HTTP and parsed, RUNS times: the
//                                                       part of a sync feedparser can be compared with (no database)
//   shelf-catalog-bench sync RUNS URL                   `shelf sync` of the loans feed at URL, RUNS times
//   shelf-catalog-bench dump FILE...                    each file's parsed feed as one line of JSON (or why it was
//                                                       refused): diff two builds' output to show a change kept every entry

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data((text + "\n").utf8))
    exit(64)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
}

let words = ["river", "lantern", "harbour", "winter", "garden", "signal", "orchard", "compass", "meadow", "archive",
             "voyage", "ember", "quarry", "atlas", "thistle", "beacon"]

func entry(_ i: Int, loan: Bool) -> String {
    let title = "The \(words[i % 16].capitalized) of \(words[(i / 16) % 16].capitalized) \(i)"
    let audio = i % 4 == 0
    let type = audio ? "http://bib.schema.org/Audiobook" : "http://schema.org/EBook"
    let end = audio ? "application/audiobook+json" : "application/epub+zip"
    let base = "https://library.example.org/works/\(i)"
    let copies = 1 + i % 5, free = i % 3 == 0 ? 0 : i % copies
    let acquisition: String
    if loan {
        acquisition = """
            <link rel="http://opds-spec.org/acquisition" href="\(base)/fulfill" type="\(end)"><opds:availability status="available" since="2026-01-0\(1 + i % 9)T10:00:00Z" until="2026-02-\(10 + i % 18)T10:00:00Z"/><opds:holds total="0"/><opds:copies total="\(copies)" available="\(free)"/></link>
                <link rel="http://librarysimplified.org/terms/rel/revoke" href="\(base)/revoke"/>
            """
    } else {
        acquisition = """
            <link rel="http://opds-spec.org/acquisition/borrow" href="\(base)/borrow" type="application/atom+xml;type=entry;profile=opds-catalog"><opds:indirectAcquisition type="\(end)"/><opds:availability status="\(free > 0 ? "available" : "unavailable")"/><opds:holds total="\(free > 0 ? 0 : i % 7)"/><opds:copies total="\(copies)" available="\(free)"/></link>
            """
    }
    return """
          <entry schema:additionalType="\(type)">
            <id>urn:librarysimplified.org/terms/id/Bench%20ID/\(i)</id>
            <title>\(escape(title))</title>
            <author><name>\(words[(i * 7) % 16].capitalized), \(words[(i * 3) % 16].capitalized)</name><link rel="contributor" href="https://library.example.org/contributors/\(i % 997)"/></author>
            <summary type="html">&lt;p&gt;A story of \(words[i % 16]) and \(words[(i + 5) % 16]), told over \(100 + i % 400) pages &amp;amp; many seasons.&lt;/p&gt;</summary>
            <dcterms:language>en</dcterms:language>
            <dcterms:publisher>Example Press</dcterms:publisher>
            <dcterms:issued>20\(10 + i % 15)-0\(1 + i % 9)-1\(i % 10)</dcterms:issued>
            <category scheme="http://librarysimplified.org/terms/genres/Simplified/" term="http://librarysimplified.org/terms/genres/Simplified/Fiction" label="Fiction"/>
            <category scheme="http://schema.org/audience" term="Adult" label="Adult"/>
            <updated>2026-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/image" href="https://covers.example.org/\(i).jpg" type="image/jpeg"/>
            <link rel="http://opds-spec.org/image/thumbnail" href="https://covers.example.org/\(i)-thumb.jpg" type="image/jpeg"/>
            <link rel="alternate" href="\(base)" type="application/atom+xml;type=entry;profile=opds-catalog"/>
            <link rel="collection" href="https://library.example.org/lanes/\(i % 12)" title="Lane \(i % 12)"/>
            \(acquisition)
          </entry>
        """
}

func feed(count: Int, loans: Bool) -> String {
    var text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:schema="http://schema.org/"
              xmlns:dcterms="http://purl.org/dc/terms/" xmlns:simplified="http://librarysimplified.org/terms/">
          <id>https://library.example.org/\(loans ? "loans" : "groups")</id>
          <title>\(loans ? "Active loans and holds" : "Generated catalog")</title>
          <updated>2026-01-01T00:00:00Z</updated>
          <link rel="self" href="https://library.example.org/\(loans ? "loans" : "groups")"/>
          <link rel="search" type="application/opensearchdescription+xml" href="https://library.example.org/search"/>
          <link rel="http://opds-spec.org/facet" href="https://library.example.org/groups?entrypoint=Book" title="eBooks" opds:facetGroup="Formats" simplified:facetGroupType="http://librarysimplified.org/terms/rel/entrypoint"/>
          <link rel="http://opds-spec.org/facet" href="https://library.example.org/groups?entrypoint=Audio" title="Audiobooks" opds:facetGroup="Formats" simplified:facetGroupType="http://librarysimplified.org/terms/rel/entrypoint"/>

        """
    text.reserveCapacity(count * 2400)
    for i in 0..<count { text += entry(i, loan: loans) + "\n" }
    return text + "</feed>\n"
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { fail("usage: shelf-catalog-bench generate|generate-loans|parse|sync ...") }

switch mode {
case "generate", "generate-loans":
    guard arguments.count == 3, let count = Int(arguments[1]) else { fail("usage: shelf-catalog-bench \(mode) COUNT OUT.xml") }
    try Data(feed(count: count, loans: mode == "generate-loans").utf8).write(to: URL(fileURLWithPath: arguments[2]))

case "parse":
    guard arguments.count >= 3, let passes = Int(arguments[1]), passes > 0 else { fail("usage: shelf-catalog-bench parse PASSES FILE...") }
    let files = arguments.dropFirst(2).map { path -> (URL, Data) in
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        return (url, data)
    }
    var best = UInt64.max
    var entries = 0, refused = 0
    for _ in 0..<passes {
        entries = 0; refused = 0
        let start = now()
        for (url, data) in files {
            // A refusal is counted, not a failure: the benchmark reads real feeds, some of them broken on purpose.
            if let parsed = try? CatalogDocument.parse(data, url: url) { entries += parsed.entries.count } else { refused += 1 }
        }
        best = min(best, now() - start)
    }
    let bytes = files.reduce(0) { $0 + $1.1.count }
    print(String(format: "shelf: %d files, %d bytes, %d entries, %d refused: %.6f s per pass (best of %d)",
                 files.count, bytes, entries, refused, Double(best) / 1e9, passes))

case "fetch":
    guard arguments.count == 3, let runs = Int(arguments[1]), runs > 0, let url = URL(string: arguments[2]) else {
        fail("usage: shelf-catalog-bench fetch RUNS URL")
    }
    let client = CatalogClient(http: HTTPClient(configuration: CatalogClient.configuration(in: ProcessEnvironment.shared)), database: nil, authenticator: nil)
    var best = UInt64.max
    var entries = 0
    for _ in 0..<runs {
        let start = now()
        entries = try client.feed(url, useCache: false).entries.count
        best = min(best, now() - start)
    }
    print(String(format: "shelf: fetched over HTTP and parsed, %d entries: %.6f s (best of %d)", entries, Double(best) / 1e9, runs))

case "sync":
    guard arguments.count == 3, let runs = Int(arguments[1]), runs > 0 else { fail("usage: shelf-catalog-bench sync RUNS URL") }
    var best = UInt64.max
    var loans = 0
    for run in 0..<runs {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-catalog-bench-\(getpid())-\(run)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // scratch: at worst left in /tmp
        // A shelf of its own (SHELF_HOME), its one account stored beforehand; the sync is the session's, as
        // `shelf sync` runs it.
        var environment = ProcessInfo.processInfo.environment
        environment["SHELF_HOME"] = folder.path
        let data = folder.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let database = try LibraryDatabase(path: data.appendingPathComponent("library.sqlite3").path)
        try database.upsertAccount(AccountRecord(id: "bench", title: "Bench Library", catalogURL: arguments[2], shelfURL: arguments[2]))
        database.close()
        let library = try Shelf(environment: environment).library()
        let pipeline = library.syncPipeline(sinks: [])
        // The plugins are found once per session, before the timing: not part of a sync.
        _ = library.openable
        let start = now()
        let result = try pipeline.run(account: "bench")
        best = min(best, now() - start)
        loans = result.loans.count
        // A second sync over the same loans: the steady state of `shelf watch`.
        if run == runs - 1 {
            let again = now()
            _ = try pipeline.run(account: "bench")
            print(String(format: "shelf sync again (same loans, rules and wish list run): %.6f s", Double(now() - again) / 1e9))
        }
    }
    print(String(format: "shelf sync: %d loans fetched, parsed and stored, notification rules run: %.6f s (best of %d)",
                 loans, Double(best) / 1e9, runs))

case "dump":
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for path in arguments.dropFirst() {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        let line: String
        do {
            line = String(decoding: try encoder.encode(try CatalogDocument.parse(data, url: url)), as: UTF8.self)
        } catch {
            line = "refused: \(error)"
        }
        print("\(url.lastPathComponent)\t\(line)")
        // The generic tree and the OpenSearch reader built on it.
        func tree(_ e: XMLElement) -> String {
            "<\(e.namespace ?? "-") \(e.name) \(e.attributes.map { "\($0.namespace ?? "-") \($0.name)=\($0.value.debugDescription)" }) "
                + "\(e.text.debugDescription) [\(e.children.map(tree).joined(separator: ","))]>"
        }
        // The `try?` is reported: a refusal prints as "refused" with its reason.
        print("\(url.lastPathComponent)\ttree\t" + ((try? tree(XMLTree.parse(data))) ?? "refused: \(String(describing: Result { try XMLTree.parse(data) }))"))
        print("\(url.lastPathComponent)\topensearch\t" + String(describing: Result { try OpenSearchDescription.parse(data, url: url) }))
    }

default:
    fail("unknown mode \(mode)")
}
