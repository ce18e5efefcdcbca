import Foundation
import Readium
import ShelfValues

// Catalog entries as the library database stores them (the `entry` column of loans, holds and catalog_entries),
// written and read by hand: JSONEncoder and JSONDecoder spent most of a sync of 1,000 loans in Codable's
// containers.
//
// The text is the JSON the Codable conformances write and read: the same members in the same order, nil ones
// left out, dates as seconds since 2001 (JSONEncoder's default). So every row written before still reads, and
// everything else that reads the column (JSONDecoder, sqlite's json_extract in the wish matcher) reads these.
// The reader takes only what it reads exactly as JSONDecoder would; anything else goes to JSONDecoder, so a
// damaged row fails as it always did.

enum CatalogEntryJSON {
    static func encode(_ entry: CatalogEntry) -> String {
        var w = JSONText()
        w.entry(entry)
        return w.text
    }

    static func encode(strings: [String]) -> String {
        var w = JSONText()
        w.strings(strings)
        return w.text
    }

    static func decode(_ text: String) throws -> CatalogEntry {
        // The fast reader knows the shape shelf writes; anything else (an older row) is read by JSONDecoder, whose
        // error is the one thrown.
        if let value = try? JSONReader.parse(text), let entry = try? CatalogEntry(stored: value) { return entry }
        return try JSONDecoder().decode(CatalogEntry.self, from: Data(text.utf8))
    }
}

// MARK: Writing

/// Compact JSON text for the catalog shapes.
private struct JSONText {
    private var bytes: [UInt8] = []
    private var first = true

    init() { bytes.reserveCapacity(2048) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func entry(_ e: CatalogEntry) {
        open()
        member("id") { $0.string(e.id) }
        member("title") { $0.string(e.title) }
        member("authors") { $0.strings(e.authors) }
        member("format") { $0.string(e.format.rawValue) }
        optional("summary", e.summary) { $0.string($1) }
        optional("publisher", e.publisher) { $0.string($1) }
        optional("language", e.language) { $0.string($1) }
        optional("published", e.published) { $0.string($1) }
        member("categories") { $0.strings(e.categories) }
        member("links") { w in w.array(e.links) { $0.link($1) } }
        member("availability") { $0.availability(e.availability) }
        member("branches") { w in
            w.array(e.branches) { w, branch in
                w.open()
                w.member("name") { $0.string(branch.name) }
                w.member("href") { $0.string(branch.href) }
                w.optional("availability", branch.availability) { $0.availability($1) }
                w.close()
            }
        }
        close()
    }

    mutating func link(_ l: CatalogLink) {
        open()
        member("href") { $0.string(l.href) }
        optional("rel", l.rel) { $0.string($1) }
        optional("type", l.type) { $0.string($1) }
        optional("title", l.title) { $0.string($1) }
        optional("facetGroup", l.facetGroup) { $0.string($1) }
        optional("activeFacet", l.activeFacet) { $0.raw($1 ? "true" : "false") }
        optional("facetGroupType", l.facetGroupType) { $0.string($1) }
        optional("availability", l.availability) { $0.availability($1) }
        optional("indirect", l.indirect) { w, list in w.array(list) { $0.indirect($1) } }
        optional("templated", l.templated) { $0.raw($1 ? "true" : "false") }
        close()
    }

    mutating func indirect(_ i: IndirectAcquisition) {
        open()
        member("type") { $0.string(i.type) }
        member("children") { w in w.array(i.children) { $0.indirect($1) } }
        close()
    }

    mutating func availability(_ a: Availability) {
        open()
        member("state") { $0.string(a.state.rawValue) }
        optional("since", a.since) { $0.date($1) }
        optional("until", a.until) { $0.date($1) }
        optional("copiesTotal", a.copiesTotal) { $0.int($1) }
        optional("copiesAvailable", a.copiesAvailable) { $0.int($1) }
        optional("holdsTotal", a.holdsTotal) { $0.int($1) }
        optional("holdPosition", a.holdPosition) { $0.int($1) }
        close()
    }

    mutating func strings(_ list: [String]) { array(list) { $0.string($1) } }

    // MARK: Pieces

    private mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    private mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    private mutating func member(_ key: StaticString, _ value: (inout JSONText) -> Void) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        value(&self)
        first = false
    }

    /// Left out when nil, as `encodeIfPresent` does.
    private mutating func optional<T>(_ key: StaticString, _ value: T?, _ write: (inout JSONText, T) -> Void) {
        guard let value else { return }
        member(key) { write(&$0, value) }
    }

    private mutating func array<T>(_ items: [T], _ write: (inout JSONText, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (i, item) in items.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    private mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    private mutating func int(_ n: Int) { bytes.append(contentsOf: String(n).utf8) }

    /// Seconds since 2001 as JSONEncoder writes a Double: whole numbers without a fraction, others in Swift's
    /// shortest form that reads back to the same value.
    private mutating func date(_ d: Date) {
        let seconds = d.timeIntervalSinceReferenceDate
        if seconds.rounded() == seconds, abs(seconds) < 1e15 { int(Int(seconds)); return }
        bytes.append(contentsOf: seconds.description.utf8)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `"` and `\` escaped, control characters as \n, \t, ... or \u00XX; the rest as UTF-8.
    private mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            let n = utf8.count
            var start = 0, i = 0
            while i < n {
                // Eight bytes at a time while none needs escaping, as in nearly all catalog text.
                if i + 8 <= n,
                    !Self.needsEscape(
                        UnsafeRawPointer(utf8.baseAddress!).loadUnaligned(fromByteOffset: i, as: UInt64.self))
                {
                    i += 8
                    continue
                }
                let b = utf8[i]
                i += 1
                if b >= 0x20 && b != 0x22 && b != 0x5C { continue }
                if start < i - 1 { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i - 1])) }
                start = i
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case 0x22, 0x5C: bytes.append(b)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: [
                        UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(b >> 4)], Self.hex[Int(b & 0xF)]
                    ])
                }
            }
            if start < n { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
        first = false
    }

    /// Whether any of the eight bytes is below 0x20, `"` or `\` (the classic "has a byte less than / equal to" bit
    /// tricks: exact as a yes or no).
    @inline(__always) private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & high != 0 }
        return (word &- ones &* 0x20) & ~word & high != 0 || hasZero(word ^ (ones &* 0x22))
            || hasZero(word ^ (ones &* 0x5C))
    }
}

// MARK: Reading

/// Thrown for anything the fast reader does not take exactly as JSONDecoder would; the caller falls back.
private struct NotPlain: Error {}

private typealias Members = [String: JSONValue]

private func members(_ value: JSONValue?) throws -> Members {
    guard case .object(let o)? = value else { throw NotPlain() }
    return o
}

private func required(_ o: Members, _ key: String) throws -> String {
    guard case .string(let s)? = o[key] else { throw NotPlain() }
    return s
}

/// Absent or null is nil, as `decodeIfPresent` reads it.
private func optional<T>(_ o: Members, _ key: String, _ read: (JSONValue) throws -> T) throws -> T? {
    switch o[key] {
    case nil, .null?: return nil
    case let value?: return try read(value)
    }
}

private func string(_ value: JSONValue) throws -> String {
    guard case .string(let s) = value else { throw NotPlain() }
    return s
}

private func list<T>(_ value: JSONValue?, _ read: (JSONValue) throws -> T) throws -> [T] {
    guard case .array(let items)? = value else { throw NotPlain() }
    return try items.map(read)
}

/// An integer JSONDecoder would read the same: whole, and small enough that the reader's Double held it exactly.
private func int(_ value: JSONValue) throws -> Int {
    guard case .number(let n) = value, abs(n) < 9_007_199_254_740_992, let exact = Int(exactly: n) else {
        throw NotPlain()
    }
    return exact
}

private func bool(_ value: JSONValue) throws -> Bool {
    guard case .bool(let b) = value else { throw NotPlain() }
    return b
}

private func date(_ value: JSONValue) throws -> Date {
    guard case .number(let n) = value else { throw NotPlain() }
    return Date(timeIntervalSinceReferenceDate: n)
}

private extension CatalogEntry {
    init(stored value: JSONValue) throws {
        let o = try members(value)
        guard let format = PublicationFormat(rawValue: try required(o, "format")) else { throw NotPlain() }
        self.init(
            id: try required(o, "id"), title: try required(o, "title"), authors: try list(o["authors"], string),
            format: format, summary: try optional(o, "summary", string),
            publisher: try optional(o, "publisher", string),
            language: try optional(o, "language", string), published: try optional(o, "published", string),
            categories: try list(o["categories"], string), links: try list(o["links"], CatalogLink.init(stored:)),
            branches: try list(o["branches"], Branch.init(stored:)))
        // Stored, not inferred again: what the library said when it was stored.
        availability = try Availability(stored: o["availability"])
    }
}

private extension CatalogEntry.Branch {
    init(stored value: JSONValue) throws {
        let o = try members(value)
        self.init(
            name: try required(o, "name"), href: try required(o, "href"),
            availability: try optional(o, "availability") { try Availability(stored: $0) })
    }
}

private extension CatalogLink {
    init(stored value: JSONValue) throws {
        let o = try members(value)
        self.init(
            href: try required(o, "href"), rel: try optional(o, "rel", string), type: try optional(o, "type", string),
            title: try optional(o, "title", string))
        facetGroup = try optional(o, "facetGroup", string)
        activeFacet = try optional(o, "activeFacet", bool)
        facetGroupType = try optional(o, "facetGroupType", string)
        availability = try optional(o, "availability") { try Availability(stored: $0) }
        indirect = try optional(o, "indirect") { try list($0, IndirectAcquisition.init(stored:)) }
        templated = try optional(o, "templated", bool)
    }
}

private extension IndirectAcquisition {
    init(stored value: JSONValue) throws {
        let o = try members(value)
        self.init(type: try required(o, "type"), children: try list(o["children"], IndirectAcquisition.init(stored:)))
    }
}

private extension Availability {
    init(stored value: JSONValue?) throws {
        let o = try members(value)
        guard let state = State(rawValue: try required(o, "state")) else { throw NotPlain() }
        self.init(
            state: state, since: try optional(o, "since", date), until: try optional(o, "until", date),
            copiesTotal: try optional(o, "copiesTotal", int), copiesAvailable: try optional(o, "copiesAvailable", int),
            holdsTotal: try optional(o, "holdsTotal", int), holdPosition: try optional(o, "holdPosition", int))
    }
}
