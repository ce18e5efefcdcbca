import ShelfValues
import ShelfCore
import Foundation
import PluginAPI
import Readium

/// The checks of a format plugin on its samples: manifest, resources, rendering, positions, search, the
/// arguments it refuses, memory over many opens, and threads.
enum PublicationChecks {
    typealias Subject = ConformanceChecks.Subject
    typealias CheckFailure = ConformanceChecks.CheckFailure

    static func open(_ s: Subject) throws -> ConformanceResult.Status {
        let router = FormatRouter(
            registry: PluginRegistry(searchPath: PluginSearchPath(entries: []), directories: nil, environment: [:]))
        for sample in try s.requireSamples() {
            let input = try PublicationInput(path: sample)
            let confidence = try s.call("probe(\(Subject.name(sample)))") { router.probe(s.plugin, input) }
            if confidence == 0 { throw CheckFailure("probe(\(Subject.name(sample))) answered 0 for a sample") }
            let publication = try RawPublication(s, path: sample)
            let (_, m) = try publication.manifest()
            let call = publication.name("manifest")
            guard let title = m.title, !title.isEmpty else {
                throw CheckFailure("\(call): metadata.title is missing or empty")
            }
            guard !m.readingOrder.isEmpty else { throw CheckFailure("\(call): readingOrder is empty") }
            for link in m.readingOrder where link.type == nil || link.href.isEmpty {
                throw CheckFailure("\(call): the reading-order link \"\(link.href)\" lacks href or type")
            }
            if m.context == nil { s.note("\(publication.sample): no @context") }
            s.note("\(publication.sample): \"\(title)\", \(m.readingOrder.count) items")
        }
        _ = try s.openSamples()
        return .passed
    }

    static func resources(_ s: Subject) throws -> ConformanceResult.Status {
        for publication in try s.openSamples() {
            let sample = Subject.name(publication.input.path)
            for link in publication.manifest.readingOrder {
                try protectedIsAnAnswer(s, link.href) {
                    _ = try s.call("resource(\(link.href)) of \(sample)") { try publication.resource(link.href) }
                }
            }
            let unknown = "no/such/resource-\(getpid()).xhtml"
            do {
                _ = try s.call("resource(\(unknown)) of \(sample)") { try publication.resource(unknown) }
                throw CheckFailure("resource(\(unknown)) of \(sample) served an href the manifest does not have")
            } catch let error as ShelfError where error.kind == .noInput {
                continue
            } catch let error as ShelfError {
                throw CheckFailure(
                    "resource(\(unknown)) of \(sample) gave \"\(error.message)\" instead of SHELF_E_NOT_FOUND")
            }
        }
        return .passed
    }

    static func render(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_RENDER) else {
            s.note("no \(SHELF_EXT_RENDER)"); return .skipped
        }
        let hasPositions = s.plugin.capabilities.contains(SHELF_EXT_POSITIONS)
        var count = 0
        for sample in try s.requireSamples() {
            let publication = try RawPublication(s, path: sample)
            // Every item of a book of ordinary length; in a long one, 40 spread evenly (a check has 30 s).
            for link in sampled(try publication.manifest().1.readingOrder, 40) {
                let at = Locator(href: link.href, type: link.type ?? "").jsonString()
                try protectedIsAnAnswer(s, link.href) {
                    _ = try publication.render(at, #"{"as":"text","width":60}"#)
                    let settings = #"{"as":"html","fontScale":150,"font":"sans","theme":"night"}"#
                    let html = try publication.render(at, settings)
                    if let problem = XHTMLCheck.problem(html.content) {
                        throw CheckFailure(
                            "\(publication.name("render", at, settings)) wrote HTML that is not XHTML: \(problem) (format.h: "
                                + "\"html\" output is a complete XHTML document)")
                    }
                    count += 2
                }
            }
            try protectedIsAnAnswer(s, "the opening") { _ = try publication.render(nil, nil) }
            // `where` is the position that holds the locator asked for, not the item's start.
            if hasPositions {
                let positions = try publication.positions()
                for p in sampled(positions, 12) {
                    let at = p.jsonString()
                    try protectedIsAnAnswer(s, p.href) {
                        let got = try publication.render(at, nil).where
                        guard got.href == p.href, got.locations.position == p.locations.position else {
                            throw CheckFailure(
                                "\(publication.name("render", at, "NULL")): `where` says \(got.href) position "
                                    + "\(got.locations.position.map(String.init) ?? "none"), but the locator asked for is position "
                                    + "\(p.locations.position ?? 0) (format.h: `where` is the position that holds the requested locator)"
                            )
                        }
                        count += 1
                    }
                }
            }
        }
        s.note("\(count) renders")
        return .passed
    }

    static func locators(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_POSITIONS) else {
            s.note("no \(SHELF_EXT_POSITIONS)"); return .skipped
        }
        for sample in try s.requireSamples() {
            let publication = try RawPublication(s, path: sample)
            let manifest = try publication.manifest().1
            let positions = try publication.positions()
            let call = publication.name("positions")
            guard !positions.isEmpty else { throw CheckFailure("\(call) wrote no positions") }
            let n = positions.count
            for (i, p) in positions.enumerated() {
                guard p.locations.position == i + 1 else {
                    throw CheckFailure(
                        "\(call): item \(i + 1) (\(p.href)) has position \(p.locations.position.map(String.init) ?? "none"); positions count 1, 2, 3, ..."
                    )
                }
                let expected = Double(i) / Double(n)
                guard let total = p.locations.totalProgression, abs(total - expected) <= 1e-6 else {
                    throw CheckFailure(
                        "\(call): position \(i + 1) of \(n) (\(p.href)) has totalProgression "
                            + "\(p.locations.totalProgression.map { "\($0)" } ?? "none"), but format.h defines it as (p - 1) / n = \(expected)"
                    )
                }
            }
            try PositionSpacing.check(s, publication, manifest, positions)
            // Round trip every position (sampled evenly in very long books).
            for p in sampled(positions, 500) {
                let back = try publication.locate(p.jsonString())
                guard back.href == p.href, back.locations.position == p.locations.position else {
                    throw CheckFailure(
                        "\(publication.name("locate", p.jsonString())) came back as \(back.href) position "
                            + "\(back.locations.position.map(String.init) ?? "none")")
                }
            }
            s.note("\(publication.sample): \(n) positions")
        }
        return .passed
    }

    static func search(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_SEARCH) else {
            s.note("no \(SHELF_EXT_SEARCH)"); return .skipped
        }
        // A sample too short to choose words from is passed over, not the end of the check: the next
        // sample may have text enough, and a search bug must not hide behind a short first sample.
        var tooShort: [String] = [], checked = 0
        for sample in try s.requireSamples() {
            let publication = try RawPublication(s, path: sample)
            let words = try searchableWords(s, publication)
            guard words.count >= 20 else {
                tooShort.append("\(publication.sample) (\(words.count))")
                continue
            }
            // Words from the middle of the text outwards; rendered text may hold an image's alt
            // text that search rightly does not cover, so one word found among five is enough.
            var candidates: [String] = []
            for word in words.dropFirst(words.count / 2) + words.prefix(words.count / 2)
            where !candidates.contains(word) {
                candidates.append(word)
                if candidates.count == 5 { break }
            }
            guard
                let (word, hits) = try candidates.lazy.map({ ($0, try publication.search($0).count) }).first(where: {
                    $0.1 > 0
                })
            else {
                throw CheckFailure(
                    "none of \(candidates.map { "\"\($0)\"" }.joined(separator: ", ")), all in the rendered text of \(publication.sample), is found by search"
                )
            }
            // format.h: matching ignores case.
            for variant in Set([
                word.uppercased(), word.lowercased(), word.prefix(1).uppercased() + word.dropFirst().lowercased()
            ]) where variant != word {
                if try publication.search(variant).isEmpty {
                    throw CheckFailure(
                        "\(publication.name("search", ReadiumJSON.encode(["query": variant]))) found nothing, but \"\(word)\" has "
                            + "\(hits) hits: search ignores case (format.h)")
                }
            }
            let none = try publication.search("zqxjvkwpq\(getpid())")
            guard none.isEmpty else {
                throw CheckFailure("a search of a nonsense word in \(publication.sample) gave \(none.count) hits")
            }
            s.note("\(publication.sample): \"\(word)\": \(hits) hits, in any case")
            checked += 1
        }
        guard checked == 0 else { return .passed }
        s.note(
            "too little text to check search: it needs 20 words of five letters or more in the rendered text of a sample, "
                + "and \(tooShort.joined(separator: ", ")) had fewer; give a longer --sample")
        return .warning
    }

    /// Words of five letters or more from the rendered text, item after item (skipping items a
    /// DRM locks) until there are enough to choose from.
    static func searchableWords(_ s: Subject, _ publication: RawPublication) throws -> [String] {
        var words: [String] = []
        for link in try publication.manifest().1.readingOrder.prefix(40) where words.count < 200 {
            try protectedIsAnAnswer(s, link.href) {
                let text = try publication.render(
                    Locator(href: link.href, type: link.type ?? "").jsonString(), #"{"as":"text"}"#
                ).content
                words += String(decoding: text, as: UTF8.self).split { !$0.isLetter }.map(String.init).filter {
                    $0.count >= 5
                }
            }
        }
        return words
    }

    /// JSON arguments that do not parse are SHELF_E_INVALID_ARGUMENT with a message, whatever a lenient
    /// reader would make of them: trailing commas first (plugin.h: JSON, RFC 8259).
    static func arguments(_ s: Subject) throws -> ConformanceResult.Status {
        let sample = try s.requireSamples()[0]
        let publication = try RawPublication(s, path: sample)
        let href = try publication.manifest().1.readingOrder.first?.href ?? ""
        var cases:
            [(String, (OpaquePointer, UnsafePointer<shelf_writer>, UnsafeMutablePointer<shelf_error>) -> shelf_status)] =
                []
        if let render = s.plugin.extensionTable(SHELF_EXT_RENDER, minimumSize: MemoryLayout<shelf_render_v1>.size)?
            .assumingMemoryBound(to: shelf_render_v1.self)
        {
            for settings in [#"{"as":"html",}"#, #"{"as":"html"} x"#] {
                cases.append(
                    (
                        publication.name("render", "NULL", settings),
                        { h, out, err in settings.withCString { render.pointee.render!(h, nil, $0, out, out, err) } }
                    ))
            }
        }
        if s.plugin.capabilities.contains(SHELF_EXT_POSITIONS) {
            let table = publication.positionsTable()
            for locator in [
                #"{"href":"\#(href)","type":"x","locations":{"position":1,},}"#,
                #"{"href":"\#(href)","locations":[1,]}"#
            ] {
                cases.append(
                    (
                        publication.name("locate", locator),
                        { h, out, err in locator.withCString { table.pointee.locate!(h, $0, out, err) } }
                    ))
            }
        }
        if let search = s.plugin.extensionTable(SHELF_EXT_SEARCH, minimumSize: MemoryLayout<shelf_search_v1>.size)?
            .assumingMemoryBound(to: shelf_search_v1.self)
        {
            for query in [#"{"query":"the",}"#, #"{"query":"the","limit":3,}"#] {
                cases.append(
                    (
                        publication.name("search", query),
                        { h, out, err in query.withCString { search.pointee.search!(h, $0, out, err) } }
                    ))
            }
        }
        guard !cases.isEmpty else { s.note("no render, positions or search: no JSON arguments"); return .skipped }
        for (call, body) in cases {
            let (status, message) = try publication.attempt(call, body)
            guard status == SHELF_E_INVALID_ARGUMENT else {
                throw CheckFailure(
                    "\(call) answered \(PluginCallError.name(of: status)), but the argument is not JSON (RFC 8259 has no trailing commas): "
                        + "SHELF_E_INVALID_ARGUMENT with a message")
            }
            if message.isEmpty { throw CheckFailure("\(call) refused malformed JSON without a message") }
        }
        s.note("\(cases.count) malformed arguments refused")
        return .passed
    }

    /// Open and close, many times: the memory in use must not grow with the count (close frees what open took).
    static func close(_ s: Subject) throws -> ConformanceResult.Status {
        let sample = try s.requireSamples()[0]
        let input = try PublicationInput(path: sample)
        let name = Subject.name(sample)
        func cycle() throws {
            var handle: OpaquePointer?
            var error = PluginCall.newError()
            let status = try s.call("open(\(name))") {
                input.withCInput { s.format.pointee.open!($0, nil, &handle, &error) }
            }
            guard status == SHELF_OK, let handle else {
                throw ConformanceChecks.SampleDidNotOpen("\(name) did not open (see the open check)")
            }
            try s.call("close(\(name))") { s.format.pointee.close?(handle) }
        }
        for _ in 0..<10 { try cycle() }
        // As many cycles as 10 seconds allow, up to 300 (a large book takes long to open): a leak of a
        // whole book shows in a few, a small leak needs many.
        let before = ResidentMemory.bytes(), start = Date()
        var rounds = 0
        while rounds < 300 && (rounds < 20 || Date().timeIntervalSince(start) < 10) {
            try cycle()
            rounds += 1
        }
        let growth = ResidentMemory.bytes() - before
        if growth > 256 << 10 && growth / rounds > 1024 {
            throw CheckFailure(
                "open(\(name)) and close, \(rounds) times, left \(growth >> 10) KiB more memory in use (about \(growth / rounds) bytes "
                    + "a cycle): close must free everything open took (plugin.h)")
        }
        for _ in 0..<5 { _ = try s.openSamples() }
        s.note("\(rounds) opens and closes of \(name)")
        return .passed
    }

    static func threads(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.descriptor.concurrentHandles else {
            s.note("the plugin does not set SHELF_PLUGIN_CONCURRENT_HANDLES: the host serialises its calls")
            return .skipped
        }
        // Compared as decoded documents: the order of keys in JSON carries no meaning.
        let expected = try s.openSamples().map { $0.manifest }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let got = try s.openSamples().map { publication -> Manifest in
                    if s.plugin.capabilities.contains(SHELF_EXT_POSITIONS) { _ = try publication.positions() }
                    return publication.manifest
                }
                if got != expected { failures.add("a concurrent open wrote a different manifest") }
            } catch {
                failures.add("\(error)")
            }
        }
        if let first = failures.first { throw CheckFailure(first) }
        s.note("8 threads")
        return .passed
    }

    /// A resource encrypted by a DRM answers SHELF_E_PROTECTED: that is the right answer, noted,
    /// not a failure (a book like that still opens, and says why a chapter cannot be shown).
    static func protectedIsAnAnswer(_ s: Subject, _ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ShelfError where error.pluginStatus == SHELF_E_PROTECTED {
            s.note("\(what): \(error.message)")
        } catch let error as PluginCallFailure where error.failure.status == SHELF_E_PROTECTED {
            s.note("\(what): \(error.failure.message)")
        }
    }

    /// At most `count` elements, evenly spread, always the first and the last.
    static func sampled<T>(_ items: [T], _ count: Int) -> [T] {
        guard items.count > count, count > 1 else { return items }
        return (0..<count).map { items[$0 * (items.count - 1) / (count - 1)] }
    }
}

/// The memory this process has in RAM, from /proc/self/statm: coarse (pages), enough to see a leak of
/// hundreds of KiB over hundreds of cycles.
enum ResidentMemory {
    static func bytes() -> Int {
        // Without /proc the leak check sees no growth and passes: it cannot measure, so it does not accuse.
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

/// What the threads of a concurrent check found, under a lock.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [String] = []
    func add(_ failure: String) { lock.withLock { found.append(failure) } }
    var first: String? { lock.withLock { found.first } }
}
