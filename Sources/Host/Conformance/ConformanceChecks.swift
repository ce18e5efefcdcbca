import Foundation
import PluginAPI
import Readium

/// The checks of `shelf conformance`. Each runs inside a child process (see ConformanceRunner)
/// so a plugin that crashes or hangs fails that check only.
public enum ConformanceChecks {
    public struct Check {
        public let name: String
        public let summary: String
        /// Needs a format plugin; connectors skip it.
        let formatOnly: Bool
        let run: (Subject) throws -> ConformanceResult.Status
    }

    /// What a check works on: the plugin, loaded and initialised, and the samples.
    final class Subject {
        let plugin: LoadedPlugin
        let samples: [String]
        let scratch: String
        var notes: [String] = []

        init(plugin: LoadedPlugin, samples: [String], scratch: String) {
            self.plugin = plugin
            self.samples = samples
            self.scratch = scratch
        }

        func note(_ text: String) { notes.append(text) }

        var format: UnsafePointer<shelf_format_v1> { plugin.format! }

        /// Opens each sample through the host's normal path; a sample that fails is a failure.
        func openSamples() throws -> [Publication] {
            guard !samples.isEmpty else {
                throw CheckFailure("no sample to open: pass --sample FILE with a book this plugin opens")
            }
            return try samples.map { path in
                do {
                    return try Publication(plugin: plugin, input: try PublicationInput(path: path))
                } catch {
                    throw CheckFailure("\((path as NSString).lastPathComponent) did not open: \(error)")
                }
            }
        }

        func file(_ name: String, _ bytes: [UInt8]) -> String {
            let path = scratch + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            return path
        }
    }

    struct CheckFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    public static let all: [Check] = [
        Check(name: "load", summary: "the library loads and shelf_plugin_entry returns a valid descriptor", formatOnly: false) { s in
            s.note("\(s.plugin.descriptor.id) \(s.plugin.descriptor.version), ABI \(s.plugin.descriptor.abiMajor).\(s.plugin.descriptor.abiMinor)")
            return .passed
        },
        Check(name: "descriptor", summary: "descriptor fields, sizes, version and lists are well-formed", formatOnly: false, run: descriptor),
        Check(name: "exports", summary: "only shelf_plugin_entry is exported", formatOnly: false, run: exports),
        Check(name: "extensions", summary: "capability vtables are complete and stable", formatOnly: false, run: extensions),
        Check(name: "probe", summary: "probe answers on empty, foreign and random bytes", formatOnly: true, run: probe),
        Check(name: "open-errors", summary: "open refuses missing, empty, random and truncated input with a message", formatOnly: true, run: openErrors),
        Check(name: "open", summary: "each sample opens and yields a valid Readium manifest", formatOnly: true, run: open),
        Check(name: "resources", summary: "every reading-order resource can be read; unknown hrefs are not found", formatOnly: true, run: resources),
        Check(name: "render", summary: "every reading-order item renders as text and HTML", formatOnly: true, run: render),
        Check(name: "locators", summary: "positions are ordered and every locator survives a round trip", formatOnly: true, run: locators),
        Check(name: "search", summary: "search finds words that are in the book and nothing that is not", formatOnly: true, run: search),
        Check(name: "close", summary: "handles open and close repeatedly", formatOnly: true, run: close),
        Check(name: "threads", summary: "separate handles work from separate threads", formatOnly: true, run: threads),
        Check(name: "connector", summary: "services match shelf.readinglist/1; capabilities JSON, settings and pull without credentials fail with a message", formatOnly: false, run: ConnectorConformance.check),
    ]

    /// Runs one check in this process and returns its result (the child side).
    public static func run(check name: String, pluginPath: String, samples: [String]) -> ConformanceResult {
        guard let check = all.first(where: { $0.name == name }) else {
            return ConformanceResult(check: name, status: .failed, message: "no such check")
        }
        let plugin: LoadedPlugin
        do {
            plugin = try LoadedPlugin(path: pluginPath)
            try plugin.initialise(directories: nil)
        } catch {
            return ConformanceResult(check: name, status: .failed, message: "\(error)")
        }
        if check.formatOnly && !plugin.isFormatPlugin {
            return ConformanceResult(check: name, status: .skipped, message: "not a format plugin (it declares no media types)")
        }
        let scratch = NSTemporaryDirectory() + "/shelf-conformance-\(getpid())"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let subject = Subject(plugin: plugin, samples: samples, scratch: scratch)
        do {
            let status = try check.run(subject)
            return ConformanceResult(check: name, status: status, message: subject.notes.joined(separator: "; "))
        } catch {
            let message = (subject.notes + ["\(error)"]).joined(separator: "; ")
            return ConformanceResult(check: name, status: .failed, message: message)
        }
    }

    // MARK: - The checks

    static func descriptor(_ s: Subject) throws -> ConformanceResult.Status {
        let d = s.plugin.descriptor
        var status = ConformanceResult.Status.passed
        if d.structSize < MemoryLayout<shelf_plugin_descriptor>.size {
            s.note("struct_size \(d.structSize) < \(MemoryLayout<shelf_plugin_descriptor>.size): built against an older header")
        }
        if d.abiMinor > Int(SHELF_ABI_MINOR) { s.note("built for ABI 1.\(d.abiMinor), newer than this shelf's 1.\(SHELF_ABI_MINOR): read up to the fields it knows") }
        guard let license = d.license, !license.isEmpty else { throw CheckFailure("no license: set an SPDX expression") }
        if !d.id.contains(".") { s.note("id \(d.id) is not reverse-DNS"); status = .warning }
        if d.description == nil || d.vendor == nil { s.note("vendor or description missing"); status = .warning }
        if d.mediaTypes.isEmpty && d.services.isEmpty { throw CheckFailure("declares neither media types nor services: it can do nothing") }
        if Set(d.mediaTypes).count != d.mediaTypes.count { throw CheckFailure("a media type is listed twice") }
        s.note(d.mediaTypes.isEmpty ? "services: \(d.services.joined(separator: ", "))" : "media types: \(d.mediaTypes.joined(separator: ", "))")
        return status
    }

    static func exports(_ s: Subject) throws -> ConformanceResult.Status {
        guard let names = ELFExports.names(path: s.plugin.path) else {
            s.note("not a 64-bit ELF library: exports not checked")
            return .skipped
        }
        let others = names.filter { $0 != SHELF_PLUGIN_ENTRY_SYMBOL && !["_init", "_fini", "_edata", "_end", "__bss_start"].contains($0) }
        guard others.isEmpty else {
            s.note("\(others.count) other symbols exported (e.g. \(others.prefix(3).joined(separator: ", "))): build with -fvisibility=hidden or a version script")
            return .warning
        }
        return .passed
    }

    static func extensions(_ s: Subject) throws -> ConformanceResult.Status {
        guard let get = s.plugin.raw.pointee.get_extension else { throw CheckFailure("no get_extension") }
        if get("org.example.no-such-extension/1") != nil { throw CheckFailure("answers an unknown extension id with a vtable instead of NULL") }
        var offered: [String] = []
        for known in KnownExtension.all {
            guard let table = get(known.id) else { continue }
            guard get(known.id) == table else { throw CheckFailure("\(known.id): a second lookup returns another pointer") }
            let size = Int(table.load(as: UInt32.self))
            guard size >= known.size else { throw CheckFailure("\(known.id): struct_size \(size) < \(known.size)") }
            // Every function slot of a 1.0 vtable must be filled.
            let slots = (known.size - 8) / MemoryLayout<UnsafeRawPointer>.size
            for i in 0..<slots where table.load(fromByteOffset: 8 + i * 8, as: UInt.self) == 0 {
                throw CheckFailure("\(known.id): function slot \(i) is NULL")
            }
            offered.append(known.id)
        }
        if !s.plugin.descriptor.mediaTypes.isEmpty && !offered.contains(SHELF_EXT_FORMAT) {
            throw CheckFailure("declares media types but offers no \(SHELF_EXT_FORMAT)")
        }
        s.note(offered.isEmpty ? "no publication capabilities" : offered.joined(separator: ", "))
        return .passed
    }

    static func probe(_ s: Subject) throws -> ConformanceResult.Status {
        var random = SplitMix(seed: 0x5EED)
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("random.bin", (0..<4096).map { _ in random.byte() }),
            ("foreign.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<64).map { _ in random.byte() }),
            ("foreign.json", Array(#"{"kind": "not a book", "items": [1, 2, 3]}"#.utf8)),
            ("zeros", [UInt8](repeating: 0, count: 2048)),
        ]
        var status = ConformanceResult.Status.passed
        let router = FormatRouter(registry: PluginRegistry(searchPath: PluginSearchPath(entries: []), directories: nil))
        for (name, bytes) in inputs {
            let input = try PublicationInput(path: s.file(name, bytes))
            let confidence = router.probe(s.plugin, input)
            if confidence > SHELF_PROBE_POSSIBLE, name != "foreign.json" || !s.plugin.descriptor.mediaTypes.contains("application/json") {
                s.note("claims \(name) with confidence \(confidence)")
                status = .warning
            }
        }
        return status
    }

    /// Calls open directly so that the status, the message and the out handle are all visible.
    static func rawOpen(_ s: Subject, path: String) throws -> (shelf_status, String) {
        let input: PublicationInput
        if FileManager.default.fileExists(atPath: path) {
            input = try PublicationInput(path: path)
        } else {
            input = try PublicationInput(path: s.file("placeholder", []))
        }
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let status = path.withCString { cPath in
            input.withCInput { base -> shelf_status in
                var copy = base.pointee
                copy.path = cPath
                return s.format.pointee.open!(&copy, nil, &handle, &error)
            }
        }
        let message = PluginCall.message(of: &error)
        if let handle {
            if status != SHELF_OK { throw CheckFailure("open of \((path as NSString).lastPathComponent) failed but left a handle") }
            s.format.pointee.close?(handle)
        }
        return (status, message)
    }

    static func openErrors(_ s: Subject) throws -> ConformanceResult.Status {
        var random = SplitMix(seed: 0xBAD)
        var cases: [(String, String)] = [
            ("missing file", s.scratch + "/does-not-exist.book"),
            ("empty file", s.file("empty", [])),
            ("random bytes", s.file("random", (0..<8192).map { _ in random.byte() })),
        ]
        for sample in s.samples {
            if let data = FileManager.default.contents(atPath: sample), data.count > 1 {
                let ext = (sample as NSString).pathExtension
                cases.append(("truncated \((sample as NSString).lastPathComponent)", s.file("truncated." + ext, [UInt8](data.prefix(data.count / 2)))))
            }
        }
        for (what, path) in cases {
            let (status, message) = try rawOpen(s, path: path)
            if status == SHELF_OK {
                // Half a text file is still a text file; half an archive must not pass silently.
                if what.hasPrefix("truncated") { s.note("\(what) opened (acceptable when the format survives truncation)"); continue }
                throw CheckFailure("\(what): open succeeded")
            }
            if message.isEmpty { throw CheckFailure("\(what): failed with \(PluginCallError.name(of: status)) but no message") }
            s.note("\(what): \(PluginCallError.name(of: status))")
        }
        return .passed
    }

    static func open(_ s: Subject) throws -> ConformanceResult.Status {
        let router = FormatRouter(registry: PluginRegistry(searchPath: PluginSearchPath(entries: []), directories: nil))
        for sample in s.samples {
            let input = try PublicationInput(path: sample)
            let confidence = router.probe(s.plugin, input)
            if confidence == 0 { throw CheckFailure("probe gives \((sample as NSString).lastPathComponent) confidence 0") }
        }
        for publication in try s.openSamples() {
            let m = publication.manifest
            let name = (publication.input.path as NSString).lastPathComponent
            guard let title = m.title, !title.isEmpty else { throw CheckFailure("\(name): manifest has no metadata.title") }
            guard !m.readingOrder.isEmpty else { throw CheckFailure("\(name): manifest has an empty readingOrder") }
            for link in m.readingOrder where link.type == nil || link.href.isEmpty {
                throw CheckFailure("\(name): reading-order link \(link.href) lacks href or type")
            }
            if m.context == nil { s.note("\(name): no @context") }
            s.note("\(name): \"\(title)\", \(m.readingOrder.count) items")
        }
        return .passed
    }

    static func resources(_ s: Subject) throws -> ConformanceResult.Status {
        for publication in try s.openSamples() {
            for link in publication.manifest.readingOrder {
                try protectedIsAnAnswer(s, link.href) { _ = try publication.resource(link.href) }
            }
            do {
                _ = try publication.resource("no/such/resource-\(getpid()).xhtml")
                throw CheckFailure("an unknown href was served")
            } catch let error as ShelfError where error.kind == .noInput {
                continue
            } catch let error as ShelfError {
                throw CheckFailure("an unknown href gave \"\(error.message)\" instead of not found")
            }
        }
        return .passed
    }

    static func render(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_RENDER) else { s.note("no \(SHELF_EXT_RENDER)"); return .skipped }
        var count = 0
        for publication in try s.openSamples() {
            for link in publication.manifest.readingOrder {
                let at = Locator(href: link.href, type: link.type ?? "")
                for settings in [#"{"as":"text","width":60}"#, #"{"as":"html","fontScale":150,"font":"sans","theme":"night"}"#] {
                    try protectedIsAnAnswer(s, link.href) {
                        let rendered = try publication.render(at: at, settings: settings)
                        if rendered.locator == nil { throw CheckFailure("\(link.href): render wrote no locator to `where`") }
                        count += 1
                    }
                }
            }
            try protectedIsAnAnswer(s, "the opening") { _ = try publication.render(at: nil, settings: nil) }
        }
        s.note("\(count) renders")
        return .passed
    }

    static func locators(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_POSITIONS) else { s.note("no \(SHELF_EXT_POSITIONS)"); return .skipped }
        for publication in try s.openSamples() {
            let positions = try publication.positions()
            guard !positions.isEmpty else { throw CheckFailure("no positions") }
            var lastProgression = -1.0
            for (i, p) in positions.enumerated() {
                guard p.locations.position == i + 1 else { throw CheckFailure("position \(i + 1) is numbered \(p.locations.position.map(String.init) ?? "nothing")") }
                let total = p.locations.totalProgression ?? -1
                guard (0...1).contains(total), total >= lastProgression else { throw CheckFailure("position \(i + 1): totalProgression \(total) out of order or range") }
                lastProgression = total
            }
            // Round trip every position (sampled evenly in very long books).
            let stride = max(1, positions.count / 500)
            for p in Swift.stride(from: 0, to: positions.count, by: stride).map({ positions[$0] }) {
                let back = try publication.locate(p)
                guard back.href == p.href, back.locations.position == p.locations.position else {
                    throw CheckFailure("position \(p.locations.position ?? 0) came back as \(back.href) position \(back.locations.position.map(String.init) ?? "none")")
                }
            }
            s.note("\(positions.count) positions")
        }
        return .passed
    }

    static func search(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.capabilities.contains(SHELF_EXT_SEARCH) else { s.note("no \(SHELF_EXT_SEARCH)"); return .skipped }
        for publication in try s.openSamples() {
            let words = try searchableWords(s, publication)
            guard words.count >= 20 else {
                s.note("too little text in the sample to check search (\(words.count) words)")
                return .warning
            }
            // Words from the middle of the text outwards; rendered text may hold an image's alt
            // text that search rightly does not cover, so one word found among five is enough.
            var candidates: [String] = []
            for word in words.dropFirst(words.count / 2) + words.prefix(words.count / 2) where !candidates.contains(word) {
                candidates.append(word)
                if candidates.count == 5 { break }
            }
            guard let (word, hits) = try candidates.lazy.map({ ($0, try publication.search($0).count) }).first(where: { $0.1 > 0 }) else {
                throw CheckFailure("none of \(candidates.map { "\"\($0)\"" }.joined(separator: ", ")), all in the rendered text, is found by search")
            }
            let none = try publication.search("zqxjvkwpq\(getpid())")
            guard none.isEmpty else { throw CheckFailure("a nonsense word gave \(none.count) hits") }
            s.note("\"\(word)\": \(hits) hits")
        }
        return .passed
    }

    /// Words of five letters or more from the rendered text, item after item (skipping items a
    /// DRM locks) until there are enough to choose from.
    static func searchableWords(_ s: Subject, _ publication: Publication) throws -> [String] {
        var words: [String] = []
        for link in publication.manifest.readingOrder where words.count < 200 {
            try protectedIsAnAnswer(s, link.href) {
                let text = try publication.render(at: Locator(href: link.href, type: link.type ?? ""), settings: #"{"as":"text"}"#).content
                words += String(decoding: text, as: UTF8.self).split { !$0.isLetter }.map(String.init).filter { $0.count >= 5 }
            }
        }
        return words
    }

    /// A resource encrypted by a DRM answers SHELF_E_PROTECTED: that is the right answer, noted,
    /// not a failure (a book like that still opens, and says why a chapter cannot be shown).
    static func protectedIsAnAnswer(_ s: Subject, _ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ShelfError where error.pluginStatus == SHELF_E_PROTECTED {
            s.note("\(what): \(error.message)")
        }
    }

    static func close(_ s: Subject) throws -> ConformanceResult.Status {
        for _ in 0..<25 { _ = try s.openSamples() }
        return .passed
    }

    static func threads(_ s: Subject) throws -> ConformanceResult.Status {
        guard s.plugin.descriptor.concurrentHandles else {
            s.note("the plugin does not set SHELF_PLUGIN_CONCURRENT_HANDLES: the host serialises its calls")
            return .skipped
        }
        // Compared as decoded documents: the order of keys in JSON carries no meaning.
        let expected = try s.openSamples().map { $0.manifest }
        let lock = NSLock()
        var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let got = try s.openSamples().map { publication -> Manifest in
                    if s.plugin.capabilities.contains(SHELF_EXT_POSITIONS) { _ = try publication.positions() }
                    return publication.manifest
                }
                if got != expected { lock.lock(); failures.append("a concurrent open wrote a different manifest"); lock.unlock() }
            } catch {
                lock.lock(); failures.append("\(error)"); lock.unlock()
            }
        }
        if let first = failures.first { throw CheckFailure(first) }
        s.note("8 threads")
        return .passed
    }
}

/// A small deterministic generator, so that a failure on "random" bytes reproduces (the tests use it too).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
