import Foundation

// A hand-written JSON writer and reader for the Readium shapes that cross the plugin boundary on every
// call (Locator, Link, Manifest, JSONValue and arrays of them). Foundation's JSONEncoder/JSONDecoder go
// through Codable containers, boxes and metadata look-ups for every member; these work on bytes.
//
// Output is the same JSON the Codable conformances write (same members, same order, the same number
// forms), compact, with `/` unescaped. The reader is strict RFC 8259; whenever it meets anything it does
// not take exactly as the Codable path would, it gives up and the caller falls back to JSONDecoder, so
// errors and edge cases keep Foundation's behaviour.

/// A failure of the fast path: the caller falls back to Foundation (decoding) or reports as today (encoding).
public struct FastJSONError: Error, Equatable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}

// MARK: Writing

/// Compact JSON into a byte buffer.
///
/// The buffer is the writer's own malloc'd memory rather than an `[UInt8]`: every append to an array checks
/// uniqueness and capacity, and a manifest of a long book is some twenty thousand appends. Noncopyable, so
/// that the memory has one owner and is freed once, or handed to `Data` without a copy (`data()`).
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = Swift.max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("JSONWriter: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// What has been written so far (a copy).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// What was written, as `Data` that takes over the writer's memory.
    public consuming func data() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }

    /// Room for `n` more bytes; where they go.
    @inline(__always) private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count + n > capacity) { grow(to: count + n) }
        return base + count
    }

    @inline(never) private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        // realloc: a large buffer is moved by remapping its pages, not by copying them.
        guard let memory = realloc(base, newCapacity) else { fatalError("JSONWriter: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always) mutating func raw(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n).update(from: text.utf8Start, count: n)
        count += n
    }

    /// A JSON string: `"` and `\` escaped, control characters as \n, \t, ... or \u00XX; the rest as UTF-8.
    public mutating func string(_ s: String) {
        // Room for the worst case, every byte written as \u00XX, so that the copy needs no checks.
        let out = reserve(s.utf8.count * 6 + 2)
        // Not `withUTF8`: it is mutating, and the copy of `s` it needs costs a retain and a release.
        if let n = s.utf8.withContiguousStorageIfAvailable({ JSONWriter.quote($0, into: out) }) {
            count += n
        } else {
            var s = s
            count += s.withUTF8 { JSONWriter.quote($0, into: out) }
        }
    }

    private static let hex: StaticString = "0123456789abcdef"

    /// Writes `"text"` at `out`, escaped; returns how many bytes that took.
    private static func quote(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = out
        o.pointee = 0x22
        o += 1
        if let p = text.baseAddress {
            let n = text.count
            var i = 0
            // Eight bytes at a time, copied as they are checked, while none of them needs escaping: most
            // strings have no byte that does, and most are too short for a call to memcpy to pay.
            while i + 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if !hasQuoteBackslashOrControl(word) {
                    UnsafeMutableRawPointer(o).storeBytes(of: word, as: UInt64.self)
                    o += 8
                    i += 8
                    continue
                }
                for _ in 0..<8 {
                    o = put(p[i], at: o)
                    i += 1
                }
            }
            while i < n {
                o = put(p[i], at: o)
                i += 1
            }
        }
        o.pointee = 0x22
        o += 1
        return o - out
    }

    /// One byte of a string at `o`, escaped if it must be; where the next goes.
    @inline(__always) private static func put(_ b: UInt8, at o: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if b >= 0x20 && b != 0x22 && b != 0x5C {
            o.pointee = b
            return o + 1
        }
        o.pointee = 0x5C
        switch b {
        case 0x22: o[1] = 0x22
        case 0x5C: o[1] = 0x5C
        case 0x0A: o[1] = UInt8(ascii: "n")
        case 0x0D: o[1] = UInt8(ascii: "r")
        case 0x09: o[1] = UInt8(ascii: "t")
        case 0x08: o[1] = UInt8(ascii: "b")
        case 0x0C: o[1] = UInt8(ascii: "f")
        default:
            o[1] = UInt8(ascii: "u"); o[2] = 0x30; o[3] = 0x30
            o[4] = hex.utf8Start[Int(b >> 4)]; o[5] = hex.utf8Start[Int(b & 0xF)]
            return o + 6
        }
        return o + 2
    }

    public mutating func int(_ n: Int) {
        if n >= 0 && n < 10 { raw(0x30 + UInt8(n)); return }
        // Digits from the right into a scratch area, then moved into place: no String made.
        let out = reserve(21)
        var magnitude = n.magnitude
        var digits = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            repeat {
                scratch[19 - digits] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                digits += 1
            } while magnitude > 0
            var o = out
            if n < 0 { o.pointee = UInt8(ascii: "-"); o += 1 }
            o.update(from: scratch.baseAddress! + (20 - digits), count: digits)
        }
        count += digits + (n < 0 ? 1 : 0)
    }

    /// A double as JSONEncoder writes it ("1" for 1.0, "0.25", "1e-05"); a non-finite one is refused
    /// (JSONEncoder throws for it too).
    public mutating func double(_ d: Double) throws {
        guard d.isFinite else { throw FastJSONError("\(d) is not a JSON number") }
        if d.rounded() == d, abs(d) < 1e15 { int(Int(d)); return }
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(utf8: text.utf8)
    }

    private mutating func append(utf8: String.UTF8View) {
        let n = utf8.count
        let out = reserve(n)
        _ = UnsafeMutableBufferPointer(start: out, count: n).initialize(from: utf8)
        count += n
    }

    public mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }
    public mutating func null() { raw("null") }

    /// Member separator bookkeeping for objects and arrays written by hand.
    @inline(__always) mutating func key(_ name: StaticString, first: inout Bool) {
        if !first { raw(UInt8(ascii: ",")) }
        first = false
        raw(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    @inline(__always) mutating func key(_ name: String, first: inout Bool) {
        if !first { raw(UInt8(ascii: ",")) }
        first = false
        string(name)
        raw(UInt8(ascii: ":"))
    }

    mutating func array<T: JSONWritable>(_ items: [T]) throws {
        raw(UInt8(ascii: "["))
        for i in items.indices {
            if i > 0 { raw(UInt8(ascii: ",")) }
            try items[i].write(to: &self)
        }
        raw(UInt8(ascii: "]"))
    }

    mutating func stringArray(_ items: [String]) {
        raw(UInt8(ascii: "["))
        items.withUnsafeBufferPointer { items in
            for i in items.indices {
                if i > 0 { raw(UInt8(ascii: ",")) }
                string(items[i])
            }
        }
        raw(UInt8(ascii: "]"))
    }

    /// Members in the order of their names, so that the same value is the same bytes in every process
    /// (a dictionary's own order follows a hash seed drawn anew by each).
    mutating func object(_ members: [String: JSONValue]) throws {
        raw(UInt8(ascii: "{"))
        var first = true
        for (k, v) in members.sorted(by: { $0.key < $1.key }) {
            key(k, first: &first)
            try v.write(to: &self)
        }
        raw(UInt8(ascii: "}"))
    }
}

/// A value the fast writer writes exactly as its Encodable conformance does.
public protocol JSONWritable {
    func write(to writer: inout JSONWriter) throws
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(to writer: inout JSONWriter) throws { try writer.array(self) }
}

extension JSONValue: JSONWritable {
    public func write(to w: inout JSONWriter) throws {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let n): try w.double(n)
        case .string(let s): w.string(s)
        case .array(let a): try w.array(a)
        case .object(let o): try w.object(o)
        }
    }
}

extension Locator: JSONWritable {
    public func write(to w: inout JSONWriter) throws {
        w.raw("{\"href\":")
        w.string(href)
        w.raw(",\"type\":")
        w.string(type)
        if let title { w.raw(",\"title\":"); w.string(title) }
        w.raw(",\"locations\":{")
        var first = true
        if let p = locations.position { w.key("position", first: &first); w.int(p) }
        if let p = locations.progression { w.key("progression", first: &first); try w.double(p) }
        if let t = locations.totalProgression { w.key("totalProgression", first: &first); try w.double(t) }
        if let f = locations.fragments { w.key("fragments", first: &first); w.stringArray(f) }
        try w.extra(locations.extra, except: Locations.known, first: first)
        w.raw("}")
        if let text {
            w.raw(",\"text\":{")
            var first = true
            if let s = text.before { w.key("before", first: &first); w.string(s) }
            if let s = text.highlight { w.key("highlight", first: &first); w.string(s) }
            if let s = text.after { w.key("after", first: &first); w.string(s) }
            w.raw("}")
        }
        try w.extra(extra, except: Self.known, first: false)
        w.raw("}")
    }
}

extension Link: JSONWritable {
    public func write(to w: inout JSONWriter) throws {
        try withUnsafePointer(to: self) { try w.link($0) }
    }
}

extension JSONWriter {
    /// Links read where they are: copying a link out of its array retains and releases every one of its
    /// fields, and a manifest of a long book has thousands.
    mutating func links(_ links: [Link]) throws {
        try linkArray(links) { w, l in try w.link(l) }
    }

    /// A JSON array of `links`, each written by `write` where it lies in the array.
    mutating func linkArray(_ links: [Link], _ write: (inout JSONWriter, UnsafePointer<Link>) throws -> Void) throws {
        raw(UInt8(ascii: "["))
        try links.withUnsafeBufferPointer { links in
            guard var p = links.baseAddress else { return }
            for i in 0..<links.count {
                if i > 0 { raw(UInt8(ascii: ",")) }
                try write(&self, p)
                p += 1
            }
        }
        raw(UInt8(ascii: "]"))
    }

    mutating func link(_ l: UnsafePointer<Link>) throws {
        raw("{\"href\":")
        string(l.pointee.href)
        if let type = l.pointee.type { raw(",\"type\":"); string(type) }
        if let title = l.pointee.title { raw(",\"title\":"); string(title) }
        if let rel = l.pointee.rel { raw(",\"rel\":"); stringArray(rel) }
        if let properties = l.pointee.properties { raw(",\"properties\":"); try object(properties) }
        if let duration = l.pointee.duration { raw(",\"duration\":"); try double(duration) }
        if let children = l.pointee.children { raw(",\"children\":"); try links(children) }
        try extra(l.pointee.extra, except: Link.known, first: false)
        raw("}")
    }

    /// Members a model does not name, after those it does, in the order of their names (see `object`).
    mutating func extra(_ members: [String: JSONValue], except known: Set<String>, first: Bool) throws {
        guard !members.isEmpty else { return }
        var first = first
        for (k, v) in members.sorted(by: { $0.key < $1.key }) where !known.contains(k) {
            key(k, first: &first)
            try v.write(to: &self)
        }
    }
}

extension Manifest: JSONWritable {
    public func write(to w: inout JSONWriter) throws {
        w.raw("{")
        var first = true
        if let context { w.key("@context", first: &first); try context.write(to: &w) }
        w.key("metadata", first: &first); try w.object(metadata)
        w.key("links", first: &first); try w.links(links)
        w.key("readingOrder", first: &first); try w.links(readingOrder)
        if let resources { w.key("resources", first: &first); try w.links(resources) }
        if let toc { w.key("toc", first: &first); try w.links(toc) }
        for (k, member) in others.sorted(by: { $0.key < $1.key }) where !Self.known.contains(k) {
            w.key(k, first: &first)
            switch member {
            case .value(let v): try v.write(to: &w)
            case .linkObjects(let links): try w.linkObjects(links)
            case .text: try member.value.write(to: &w)
            }
        }
        w.raw("}")
    }
}

extension JSONWriter {
    /// The JSON of `JSONValue(linkObjects:)`, without making it: the same members in the same (sorted) order.
    mutating func linkObjects(_ links: [Link]) throws {
        try linkArray(links) { w, l in
            w.raw(UInt8(ascii: "{"))
            if let children = l.pointee.children, !children.isEmpty { w.raw("\"children\":"); try w.linkObjects(children); w.raw(UInt8(ascii: ",")) }
            w.raw("\"href\":")
            w.string(l.pointee.href)
            if let properties = l.pointee.properties { w.raw(",\"properties\":"); try w.object(properties) }
            if let rel = l.pointee.rel {
                w.raw(",\"rel\":")
                if rel.count == 1 { w.string(rel[0]) } else { w.stringArray(rel) }
            }
            if let title = l.pointee.title { w.raw(",\"title\":"); w.string(title) }
            if let type = l.pointee.type { w.raw(",\"type\":"); w.string(type) }
            w.raw(UInt8(ascii: "}"))
        }
    }
}

/// Whether any of the eight bytes is a control character, `"` or `\`: the bytes a JSON string cannot hold as
/// they are. May say yes when none is (the bytes are then looked at one by one), never no when one is.
@inline(__always) func hasQuoteBackslashOrControl(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & high != 0 }
    let below0x20 = (w &- ones &* 0x20) & ~w & high != 0
    return below0x20 || hasZeroByte(w ^ (ones &* 0x22)) || hasZeroByte(w ^ (ones &* 0x5C))
}

// MARK: Reading

/// A strict RFC 8259 reader into `JSONValue`. Throws `FastJSONError` on anything it does not accept.
public struct JSONReader {
    static let maxDepth = 512

    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            try parse(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var reader = Cursor(buffer: buffer)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.i == buffer.count else { throw FastJSONError("trailing characters at \(reader.i)") }
        return value
    }

    struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The last media type read (see `optionalType()`).
        var lastType: String?

        init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

        @inline(__always) mutating func skipSpace() {
            while i < buffer.count {
                let b = buffer[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
            }
        }

        @inline(__always) func peek() throws -> UInt8 {
            guard i < buffer.count else { throw FastJSONError("unexpected end") }
            return buffer[i]
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
            let n = word.utf8CodeUnitCount
            guard i + n <= buffer.count else { throw FastJSONError("unexpected end") }
            let p = word.utf8Start
            for k in 0..<n where buffer[i + k] != p[k] { throw FastJSONError("bad literal at \(i)") }
            i += n
            return value
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONReader.maxDepth else { throw FastJSONError("too deep") }
            switch try peek() {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"):
                i += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if try peek() == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard try peek() == UInt8(ascii: "\"") else { throw FastJSONError("expected a key at \(i)") }
                    let key = try string()
                    skipSpace()
                    guard try peek() == UInt8(ascii: ":") else { throw FastJSONError("expected : at \(i)") }
                    i += 1
                    skipSpace()
                    // Duplicate members: JSONDecoder keeps the first; leave such input to it.
                    guard members.updateValue(try value(depth: depth + 1), forKey: key) == nil else {
                        throw FastJSONError("duplicate member \(key)")
                    }
                    skipSpace()
                    let b = try peek()
                    i += 1
                    if b == UInt8(ascii: ",") { continue }
                    if b == UInt8(ascii: "}") { return .object(members) }
                    throw FastJSONError("expected , or } at \(i - 1)")
                }
            case UInt8(ascii: "["): return .array(try elements { try $0.value(depth: depth + 1) })
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        /// The bytes of a key, compared without making a String (the common keys of a locator).
        mutating func keyIs(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n + 1 < buffer.count, buffer[i + n + 1] == 0x22 else { return false }
            let p = word.utf8Start
            for k in 0..<n where buffer[i + 1 + k] != p[k] { return false }
            i += n + 2
            return true
        }

        mutating func colon() throws {
            skipSpace()
            guard try peek() == UInt8(ascii: ":") else { throw FastJSONError("expected : at \(i)") }
            i += 1
            skipSpace()
        }

        /// Calls `member` for each key of an object; the closure reads the value.
        mutating func members(_ member: (inout Cursor) throws -> Void) throws {
            guard try peek() == UInt8(ascii: "{") else { throw FastJSONError("expected an object at \(i)") }
            i += 1
            skipSpace()
            if try peek() == UInt8(ascii: "}") { i += 1; return }
            while true {
                skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw FastJSONError("expected a key at \(i)") }
                try member(&self)
                skipSpace()
                let b = try peek()
                i += 1
                if b == UInt8(ascii: ",") { continue }
                if b == UInt8(ascii: "}") { return }
                throw FastJSONError("expected , or } at \(i - 1)")
            }
        }

        /// Reads an array whose every item `item` reads.
        mutating func elements<T>(_ item: (inout Cursor) throws -> T) throws -> [T] {
            guard try peek() == UInt8(ascii: "[") else { throw FastJSONError("expected an array at \(i)") }
            i += 1
            var out: [T] = []
            skipSpace()
            if try peek() == UInt8(ascii: "]") { i += 1; return out }
            while true {
                skipSpace()
                out.append(try item(&self))
                skipSpace()
                let b = try peek()
                i += 1
                if b == UInt8(ascii: ",") { continue }
                if b == UInt8(ascii: "]") { return out }
                throw FastJSONError("expected , or ] at \(i - 1)")
            }
        }

        mutating func optionalString() throws -> String? {
            switch try peek() {
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "n"): _ = try literal("null", .null); return nil
            default: throw FastJSONError("expected a string at \(i)")
            }
        }

        /// A media type: a string or null, as `optionalString()` reads it, and the last one again when it has
        /// the same bytes. The media types of a long book's links are a handful repeated thousands of times, and
        /// "application/xhtml+xml" is too long to be stored in place: each new copy took an allocation.
        mutating func optionalType() throws -> String? {
            if try peek() == UInt8(ascii: "\""), var previous = lastType {
                let start = i + 1
                let end = previous.withUTF8 { p -> Int? in
                    let end = start + p.count
                    guard end < buffer.count, buffer[end] == 0x22, let base = p.baseAddress,
                          memcmp(base, buffer.baseAddress! + start, p.count) == 0 else { return nil }
                    return end
                }
                if let end {
                    i = end + 1
                    return previous
                }
            }
            let s = try optionalString()
            // Kept only without the bytes that `string()` reads otherwise than as themselves (quote, backslash,
            // control characters), so that the same bytes followed by a quote are the same string.
            if var s, s.withUTF8({ !$0.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }) { lastType = s }
            return s
        }

        mutating func optionalDouble() throws -> Double? {
            switch try value(depth: 1) {
            case .null: return nil
            case .number(let n): return n
            default: throw FastJSONError("expected a number")
            }
        }

        /// A locator read straight from the bytes, as `Locator(json:)` reads it from a parsed value.
        mutating func locator() throws -> Locator {
            var href: String?
            var type: String?
            var title: String?
            var locations = Locator.Locations()
            var text: Locator.Text?
            var extra: [String: JSONValue] = [:]
            var seen: UInt8 = 0
            func once(_ bit: UInt8) throws {
                guard seen & bit == 0 else { throw FastJSONError("duplicate member") }  // JSONDecoder keeps the first
                seen |= bit
            }
            try members { c in
                if c.keyIs("href") { try once(1); try c.colon(); guard case .string(let s) = try c.value(depth: 1) else { throw FastJSONError("href") }; href = s }
                else if c.keyIs("type") { try once(2); try c.colon(); type = try c.optionalString() }
                else if c.keyIs("title") { try once(4); try c.colon(); title = try c.optionalString() }
                else if c.keyIs("locations") {
                    try once(8)
                    try c.colon()
                    locations = Locator.Locations()
                    if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return }
                    var seenL: UInt8 = 0
                    func onceL(_ bit: UInt8) throws {
                        guard seenL & bit == 0 else { throw FastJSONError("duplicate member") }
                        seenL |= bit
                    }
                    try c.members { l in
                        if l.keyIs("position") {
                            try onceL(1)
                            try l.colon()
                            if let n = try l.optionalDouble() {
                                guard let exact = Int(exactly: n) else { throw FastJSONError("position") }
                                locations.position = exact
                            } else { locations.position = nil }
                        }
                        else if l.keyIs("progression") { try onceL(2); try l.colon(); locations.progression = try l.optionalDouble() }
                        else if l.keyIs("totalProgression") { try onceL(4); try l.colon(); locations.totalProgression = try l.optionalDouble() }
                        else if l.keyIs("fragments") { try onceL(8); try l.colon(); locations.fragments = try [String]?.fromJSON(l.value(depth: 2)) }
                        else { try l.unknownMember(into: &locations.extra, except: Locator.Locations.known, depth: 2) }
                    }
                }
                else if c.keyIs("text") {
                    try once(16)
                    try c.colon()
                    text = nil
                    if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return }
                    var t = Locator.Text()
                    var seenT: UInt8 = 0
                    func onceT(_ bit: UInt8) throws {
                        guard seenT & bit == 0 else { throw FastJSONError("duplicate member") }
                        seenT |= bit
                    }
                    try c.members { m in
                        if m.keyIs("before") { try onceT(1); try m.colon(); t.before = try m.optionalString() }
                        else if m.keyIs("highlight") { try onceT(2); try m.colon(); t.highlight = try m.optionalString() }
                        else if m.keyIs("after") { try onceT(4); try m.colon(); t.after = try m.optionalString() }
                        else { _ = try m.string(); try m.colon(); _ = try m.value(depth: 2) }
                    }
                    text = t
                }
                else { try c.unknownMember(into: &extra, except: Locator.known, depth: 1) }
            }
            guard let href else { throw FastJSONError("no href") }
            var locator = Locator(href: href, type: type ?? "", title: title, locations: locations, text: text)
            locator.extra = extra
            return locator
        }

        /// A member a model does not name, kept in `extra`.
        mutating func unknownMember(into extra: inout [String: JSONValue], except known: Set<String>, depth: Int) throws {
            let key = try string()
            // A known key spelled with escapes: leave the input to the slower, exact path.
            guard !known.contains(key) else { throw FastJSONError("escaped key \(key)") }
            try colon()
            guard extra.updateValue(try value(depth: depth), forKey: key) == nil else {
                throw FastJSONError("duplicate member \(key)")
            }
        }

        /// A link read straight from the bytes, as `Link(json:)` reads it from a parsed value: a manifest of a
        /// long book has thousands, and a `JSONValue` dictionary for each cost more than the rest of the parse.
        /// A loop rather than `members` and its closure: the variables a closure captures live on the heap,
        /// behind exclusivity checks, and the link was copied out of its box at the end.
        mutating func link(depth: Int) throws -> Link {
            guard depth < JSONReader.maxDepth else { throw FastJSONError("too deep") }
            guard try peek() == UInt8(ascii: "{") else { throw FastJSONError("expected an object at \(i)") }
            i += 1
            var href: String?
            var type: String?, title: String?, rel: [String]?
            var properties: [String: JSONValue]?, duration: Double?, children: [Link]?
            var extra: [String: JSONValue] = [:]
            var seen: UInt8 = 0
            @inline(__always) func once(_ bit: UInt8, _ seen: inout UInt8) throws {
                guard seen & bit == 0 else { throw FastJSONError("duplicate member") }  // JSONDecoder keeps the first
                seen |= bit
            }
            skipSpace()
            if try peek() == UInt8(ascii: "}") {
                i += 1
            } else {
                while true {
                    skipSpace()
                    guard try peek() == UInt8(ascii: "\"") else { throw FastJSONError("expected a key at \(i)") }
                    if keyIs("href") {
                        try once(1, &seen); try colon()
                        // Read as `value(depth: depth + 1)` reads it, bound included.
                        guard depth + 1 < JSONReader.maxDepth, try peek() == UInt8(ascii: "\"") else { throw FastJSONError("href") }
                        href = try string()
                    } else if keyIs("type") { try once(2, &seen); try colon(); type = try optionalType() }
                    else if keyIs("title") { try once(4, &seen); try colon(); title = try optionalString() }
                    else if keyIs("rel") {
                        try once(8, &seen); try colon()
                        let value = try value(depth: depth + 1)
                        if case .string(let one) = value { rel = [one] } else { rel = try [String]?.fromJSON(value) }
                    } else if keyIs("properties") {
                        try once(16, &seen); try colon()
                        switch try value(depth: depth + 1) {
                        case .null: properties = nil
                        case .object(let o): properties = o
                        default: throw FastJSONError("properties is not an object")
                        }
                    } else if keyIs("duration") {
                        try once(32, &seen); try colon()
                        // Anything but a number reads as nil, as the Codable path's `try?` does.
                        if case .number(let d) = try value(depth: depth + 1) { duration = d }
                    } else if keyIs("children") {
                        try once(64, &seen); try colon()
                        if try peek() == UInt8(ascii: "n") { _ = try literal("null", .null) } else { children = try links(depth: depth + 1) }
                    } else {
                        try unknownMember(into: &extra, except: Link.known, depth: depth + 1)
                    }
                    skipSpace()
                    let b = try peek()
                    i += 1
                    if b == UInt8(ascii: ",") { continue }
                    if b == UInt8(ascii: "}") { break }
                    throw FastJSONError("expected , or } at \(i - 1)")
                }
            }
            guard let href else { throw FastJSONError("no href") }
            return Link(href: href, type: type, title: title, rel: rel, properties: properties, duration: duration,
                        children: children, extra: extra)
        }

        mutating func links(depth: Int) throws -> [Link] {
            try elements { try $0.link(depth: depth + 1) }
        }

        /// A manifest read straight from the bytes, as `Manifest(json:)` reads it from a parsed value.
        mutating func manifest() throws -> Manifest {
            var metadata: [String: JSONValue]?
            var readingOrder: [Link]?
            var context: JSONValue?
            var links: [Link]?
            var resources: [Link]?
            var toc: [Link]?
            var others: [String: Manifest.Member] = [:]
            var seen: UInt8 = 0
            func once(_ bit: UInt8) throws {
                guard seen & bit == 0 else { throw FastJSONError("duplicate member") }
                seen |= bit
            }
            func optionalLinks(_ c: inout Cursor) throws -> [Link]? {
                if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return nil }
                return try c.links(depth: 1)
            }
            try members { c in
                if c.keyIs("metadata") {
                    try once(1); try c.colon()
                    guard case .object(let o) = try c.value(depth: 1) else { throw FastJSONError("no metadata object") }
                    metadata = o
                } else if c.keyIs("readingOrder") { try once(2); try c.colon(); readingOrder = try c.links(depth: 1) }
                else if c.keyIs("@context") {
                    try once(4); try c.colon()
                    let value = try c.value(depth: 1)
                    context = value == .null ? nil : value
                } else if c.keyIs("links") { try once(8); try c.colon(); links = try optionalLinks(&c) }
                else if c.keyIs("resources") { try once(16); try c.colon(); resources = try optionalLinks(&c) }
                else if c.keyIs("toc") { try once(32); try c.colon(); toc = try optionalLinks(&c) }
                else {
                    let key = try c.string()
                    guard !Manifest.known.contains(key) else { throw FastJSONError("escaped key \(key)") }
                    try c.colon()
                    guard others.updateValue(try c.otherMember(), forKey: key) == nil else {
                        throw FastJSONError("duplicate member \(key)")
                    }
                }
            }
            guard let metadata else { throw FastJSONError("no metadata object") }
            guard let readingOrder else { throw FastJSONError("no readingOrder") }
            var manifest = Manifest(metadata: metadata, links: links ?? [], readingOrder: readingOrder,
                                    resources: resources, toc: toc)
            manifest.context = context
            manifest.others = others
            return manifest
        }

        /// A top-level member of a manifest that the model does not name. An array or an object is checked
        /// and kept as text, made into a value only if asked for (the host asks for none); anything the check
        /// leaves undecided is read now.
        mutating func otherMember() throws -> Manifest.Member {
            let start = i
            let b = try peek()
            if b == UInt8(ascii: "[") || b == UInt8(ascii: "{"), skipChecked(depth: 1) {
                return .text(Array(UnsafeBufferPointer(rebasing: buffer[start..<i])))
            }
            i = start
            return .value(try value(depth: 1))
        }

        /// Steps over one value, true when `value(depth:)` would read it, without making it. False as well for
        /// what only `value(depth:)` decides: a key with an escape or a byte outside ASCII (equal Strings may
        /// differ in their bytes), an object of more than eight members.
        mutating func skipChecked(depth: Int) -> Bool {
            guard depth < JSONReader.maxDepth, i < buffer.count else { return false }
            switch buffer[i] {
            case UInt8(ascii: "\""): return skipString(isKey: false)
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                guard i < buffer.count else { return false }
                if buffer[i] == UInt8(ascii: "}") { i += 1; return true }
                // Where each key of the object starts and how long it is, to find duplicates.
                var starts = SIMD8<Int32>(), lengths = SIMD8<Int32>()
                var count = 0
                while true {
                    skipSpace()
                    guard i < buffer.count, buffer[i] == UInt8(ascii: "\""), count < 8 else { return false }
                    let start = i + 1
                    guard skipString(isKey: true) else { return false }
                    let length = i - 1 - start
                    for k in 0..<count where Int(lengths[k]) == length
                        && memcmp(buffer.baseAddress! + Int(starts[k]), buffer.baseAddress! + start, length) == 0 {
                        return false
                    }
                    starts[count] = Int32(truncatingIfNeeded: start)
                    lengths[count] = Int32(truncatingIfNeeded: length)
                    count += 1
                    skipSpace()
                    guard i < buffer.count, buffer[i] == UInt8(ascii: ":") else { return false }
                    i += 1
                    skipSpace()
                    guard skipChecked(depth: depth + 1) else { return false }
                    skipSpace()
                    guard i < buffer.count else { return false }
                    let b = buffer[i]
                    i += 1
                    if b == UInt8(ascii: ",") { continue }
                    return b == UInt8(ascii: "}")
                }
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                guard i < buffer.count else { return false }
                if buffer[i] == UInt8(ascii: "]") { i += 1; return true }
                while true {
                    skipSpace()
                    guard skipChecked(depth: depth + 1) else { return false }
                    skipSpace()
                    guard i < buffer.count else { return false }
                    let b = buffer[i]
                    i += 1
                    if b == UInt8(ascii: ",") { continue }
                    return b == UInt8(ascii: "]")
                }
            case UInt8(ascii: "t"): return (try? literal("true", .null)) != nil
            case UInt8(ascii: "f"): return (try? literal("false", .null)) != nil
            case UInt8(ascii: "n"): return (try? literal("null", .null)) != nil
            default: return (try? number()) != nil
            }
        }

        /// Steps over a string, true when `string()` would read it.
        mutating func skipString(isKey: Bool) -> Bool {
            i += 1  // the opening quote
            let start = i
            let (end, ascii) = plainRun(from: start)
            i = end
            guard end < buffer.count else { return false }
            switch buffer[end] {
            case 0x22:
                i += 1
                if ascii { return true }
                return !isKey && JSONReader.isValidUTF8(UnsafeBufferPointer(rebasing: buffer[start..<end]))
            // Rare: read as `string()` reads it.
            case 0x5C: return !isKey && (try? escapedString(from: start)) != nil
            default: return false
            }
        }

        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        mutating func number() throws -> Double {
            let start = i
            if i < buffer.count, buffer[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buffer.count, isDigit(buffer[i]) else { throw FastJSONError("bad number at \(start)") }
            var integral = true
            if buffer[i] == 0x30 { i += 1 } else { while i < buffer.count, isDigit(buffer[i]) { i += 1 } }
            if i < buffer.count, buffer[i] == UInt8(ascii: ".") {
                integral = false
                i += 1
                guard i < buffer.count, isDigit(buffer[i]) else { throw FastJSONError("bad number at \(start)") }
                while i < buffer.count, isDigit(buffer[i]) { i += 1 }
            }
            if i < buffer.count, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
                integral = false
                i += 1
                if i < buffer.count, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") { i += 1 }
                guard i < buffer.count, isDigit(buffer[i]) else { throw FastJSONError("bad number at \(start)") }
                while i < buffer.count, isDigit(buffer[i]) { i += 1 }
            }
            // Small integers (positions, sizes): exact without going through text.
            if integral, i - start <= 15 {
                var n = 0
                var k = start
                let negative = buffer[k] == UInt8(ascii: "-")
                if negative { k += 1 }
                while k < i { n = n * 10 + Int(buffer[k] - 0x30); k += 1 }
                return Double(negative ? -n : n)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { throw FastJSONError("number out of range at \(start)") }
            return d
        }

        func hexValue(_ b: UInt8) throws -> UInt32 {
            switch b {
            case 0x30...0x39: return UInt32(b - 0x30)
            case 0x41...0x46: return UInt32(b - 0x41 + 10)
            case 0x61...0x66: return UInt32(b - 0x61 + 10)
            default: throw FastJSONError("bad \\u escape at \(i)")
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= buffer.count else { throw FastJSONError("unexpected end") }
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 4 | (try hexValue(buffer[i + k])) }
            i += 4
            return v
        }

        mutating func string() throws -> String {
            i += 1  // the opening quote
            let start = i
            let (end, ascii) = plainRun(from: start)
            i = end
            guard end < buffer.count else { throw FastJSONError("unterminated string") }
            switch buffer[end] {
            case 0x22:
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                i += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else { throw FastJSONError("invalid UTF-8") }
                return s
            case 0x5C: return try escapedString(from: start)
            default: throw FastJSONError("control character in a string at \(i)")
            }
        }

        /// Where the bytes of a string that stand for themselves end, from `start`: at the first quote,
        /// backslash or control character, or at the end of the buffer; and whether they are all ASCII.
        /// Eight bytes at a time, as the writer checks them.
        @inline(__always) func plainRun(from start: Int) -> (end: Int, ascii: Bool) {
            guard let base = buffer.baseAddress else { return (start, true) }
            var k = start
            var seen: UInt64 = 0
            while k + 8 <= buffer.count {
                let word = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
                if hasQuoteBackslashOrControl(word) { break }
                seen |= word
                k += 8
            }
            while k < buffer.count {
                let b = base[k]
                if b == 0x22 || b == 0x5C || b < 0x20 { break }
                seen |= UInt64(b)
                k += 1
            }
            return (k, seen & 0x8080_8080_8080_8080 == 0)
        }

        /// The slow path of `string()`: a string with escapes, decoded into bytes.
        mutating func escapedString(from start: Int) throws -> String {
            var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: buffer[start..<i]))
            while i < buffer.count {
                let b = buffer[i]
                if b == 0x22 {
                    i += 1
                    guard let s = String(validating: out, as: UTF8.self) else { throw FastJSONError("invalid UTF-8") }
                    return s
                }
                if b < 0x20 { throw FastJSONError("control character in a string at \(i)") }
                if b != 0x5C { out.append(b); i += 1; continue }
                i += 1
                guard i < buffer.count else { throw FastJSONError("unexpected end") }
                let e = buffer[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 6 <= buffer.count, buffer[i] == 0x5C, buffer[i + 1] == UInt8(ascii: "u") else {
                            throw FastJSONError("lone surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw FastJSONError("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw FastJSONError("lone surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw FastJSONError("bad scalar") }
                    out.append(contentsOf: UTF8.encode(u)!)
                default: throw FastJSONError("bad escape at \(i - 1)")
                }
            }
            throw FastJSONError("unterminated string")
        }
    }
}

extension JSONReader {
    /// Whether `String(validating:as: UTF8.self)` takes these bytes, found without making a String.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

extension Optional where Wrapped == [String] {
    static func fromJSON(_ v: JSONValue) throws -> [String]? {
        switch v {
        case .null: return nil
        case .array(let a):
            return try a.map { item in
                guard case .string(let s) = item else { throw FastJSONError("expected strings") }
                return s
            }
        default: throw FastJSONError("expected an array of strings")
        }
    }
}

extension JSONReader {
    /// Locators straight from the bytes, without building a `JSONValue` tree (a positions list has thousands).
    public static func locators(_ data: Data) throws -> [Locator] {
        try whole(data) { try $0.elements { try $0.locator() } }
    }

    public static func manifest(_ data: Data) throws -> Manifest {
        try whole(data) { try $0.manifest() }
    }

    public static func locator(_ data: Data) throws -> Locator {
        try whole(data) { try $0.locator() }
    }

    /// One value read by `read` from the whole of `data`, with nothing but white space around it.
    private static func whole<T>(_ data: Data, _ read: (inout Cursor) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var c = Cursor(buffer: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
            c.skipSpace()
            let out = try read(&c)
            c.skipSpace()
            guard c.i == c.buffer.count else { throw FastJSONError("trailing characters") }
            return out
        }
    }
}

/// A value the fast reader builds from a parsed `JSONValue` exactly as its Decodable conformance does;
/// anything the Codable path might read differently throws `FastJSONError` (and the caller falls back).
public protocol JSONReadable {
    init(json: JSONValue) throws
}

extension JSONValue: JSONReadable {
    public init(json: JSONValue) throws { self = json }
}

extension Array: JSONReadable where Element: JSONReadable {
    public init(json: JSONValue) throws {
        guard case .array(let items) = json else { throw FastJSONError("expected an array") }
        self = try items.map(Element.init(json:))
    }
}

private func object(_ json: JSONValue) throws -> [String: JSONValue] {
    guard case .object(let o) = json else { throw FastJSONError("expected an object") }
    return o
}

/// A member read as `decodeIfPresent` does: absent or null is nil, another type is an error.
private func optionalString(_ o: [String: JSONValue], _ key: String) throws -> String? {
    switch o[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    default: throw FastJSONError("\(key) is not a string")
    }
}

private func optionalDouble(_ o: [String: JSONValue], _ key: String) throws -> Double? {
    switch o[key] {
    case nil, .null?: return nil
    case .number(let n)?: return n
    default: throw FastJSONError("\(key) is not a number")
    }
}

private func optionalStrings(_ v: JSONValue?) throws -> [String]? {
    switch v {
    case nil, .null?: return nil
    case .array(let a)?:
        return try a.map { item in
            guard case .string(let s) = item else { throw FastJSONError("expected strings") }
            return s
        }
    default: throw FastJSONError("expected an array of strings")
    }
}

private func optionalArray<T: JSONReadable>(_ v: JSONValue?, _ type: T.Type) throws -> [T]? {
    switch v {
    case nil, .null?: return nil
    default: return try [T](json: v!)
    }
}

extension Locator: JSONReadable {
    public init(json: JSONValue) throws {
        let o = try object(json)
        guard case .string(let href)? = o["href"] else { throw FastJSONError("no href") }
        self.init(href: href, type: try optionalString(o, "type") ?? "", title: try optionalString(o, "title"))
        switch o["locations"] {
        case nil, .null?: break
        case let value?:
            let l = try object(value)
            var position: Int?
            switch l["position"] {
            case nil, .null?: break
            case .number(let n)?:
                guard let exact = Int(exactly: n) else { throw FastJSONError("position is not an integer") }
                position = exact
            default: throw FastJSONError("position is not a number")
            }
            locations = Locations(position: position, progression: try optionalDouble(l, "progression"),
                                  totalProgression: try optionalDouble(l, "totalProgression"),
                                  fragments: try optionalStrings(l["fragments"]))
            for (k, v) in l where !Locations.known.contains(k) { locations.extra[k] = v }
        }
        switch o["text"] {
        case nil, .null?: break
        case let value?:
            let t = try object(value)
            text = Text(before: try optionalString(t, "before"), highlight: try optionalString(t, "highlight"),
                        after: try optionalString(t, "after"))
        }
        for (k, v) in o where !Self.known.contains(k) { extra[k] = v }
    }
}

extension Link: JSONReadable {
    public init(json: JSONValue) throws {
        let o = try object(json)
        guard case .string(let href)? = o["href"] else { throw FastJSONError("no href") }
        var rel: [String]?
        if case .string(let one)? = o["rel"] { rel = [one] } else { rel = try optionalStrings(o["rel"]) }
        var properties: [String: JSONValue]?
        switch o["properties"] {
        case nil, .null?: break
        case let value?: properties = try object(value)
        }
        var duration: Double?
        if case .number(let d)? = o["duration"] { duration = d }  // anything else reads as nil, as `try?` does
        self.init(href: href, type: try optionalString(o, "type"), title: try optionalString(o, "title"), rel: rel,
                  properties: properties, duration: duration, children: try optionalArray(o["children"], Link.self))
        if o.count > 0 {
            for (k, v) in o where !Self.known.contains(k) { extra[k] = v }
        }
    }
}

extension Manifest: JSONReadable {
    public init(json: JSONValue) throws {
        let o = try object(json)
        guard let metadataValue = o["metadata"], case .object(let metadata) = metadataValue else {
            throw FastJSONError("no metadata object")
        }
        guard let order = o["readingOrder"], case .array = order else { throw FastJSONError("no readingOrder") }
        self.init(metadata: metadata, readingOrder: try [Link](json: order))
        switch o["@context"] {
        case nil, .null?: context = nil
        case let c?: context = c
        }
        links = try optionalArray(o["links"], Link.self) ?? []
        resources = try optionalArray(o["resources"], Link.self)
        toc = try optionalArray(o["toc"], Link.self)
        for (k, v) in o where !Self.known.contains(k) { others[k] = .value(v) }
    }
}

extension ReadiumJSON {
    /// Compact JSON of a value the fast writer knows; nil for any other value.
    public static func fastWire(_ value: Any) throws -> Data? {
        guard let writable = value as? JSONWritable else { return nil }
        var writer = JSONWriter(capacity: 4096)
        try writable.write(to: &writer)
        return writer.data()
    }

    /// Decodes JSON: through the fast reader for the Readium shapes, falling back to JSONDecoder for any
    /// other type and for any input the fast reader does not take exactly as JSONDecoder would.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if T.self == [Locator].self, let value = try? JSONReader.locators(data) { return value as! T }
        if T.self == Locator.self, let value = try? JSONReader.locator(data) { return value as! T }
        if T.self == Manifest.self, let value = try? JSONReader.manifest(data) { return value as! T }
        if let readable = T.self as? JSONReadable.Type,
           let value = try? readable.init(json: JSONReader.parse(data)) as? T {
            return value
        }
        return try JSONDecoder().decode(type, from: data)
    }
}
