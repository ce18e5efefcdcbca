import Foundation

// The JSON of the Readium shapes (Locator, Link, Manifest, positions): one reader (JSONReader's cursor, below)
// and one writer (JSONWriter, below) for each, and nothing else. The Codable conformances at the end go through
// the two, for shapes inside the host's Codable documents.
//
// Why these and not JSONDecoder/JSONEncoder (issue 14): `make bench`, section 4 (Benchmarks/JSONBench), reads and
// writes the documents of real books both ways in the same run, release build, Swift 6.3.1, median of 21 rounds.
// Before the decision, against the member-by-member Codable conformances these shapes had (2026-12-02, on a
// loaded 2-core machine; Foundation's time over ours):
//
//   Moby-Dick (EPUB 3)            this reader/writer   JSONDecoder/JSONEncoder
//   open: manifest read (36 KB)       0.19 ms             7.8 ms      42x
//   open: manifest written            0.07 ms             4.0 ms      61x
//   page turn: locator read           1.2 µs             37.5 µs      31x
//   page turn: locator written        0.5 µs             15.4 µs      29x
//   save: locator with text written   0.7 µs             25.3 µs      36x
//   positions read (654, 128 KB)      3.1 ms             22.5 ms       7x
//   Memoires d'outre-tombe: manifest (181 KB) read 2.3 against 56.6 ms, positions (2,615) read 14.4 against 148 ms.
//
// Foundation is nowhere within 10% on a path a patron waits on (opening a book, a page turn, saving a place),
// so the fast path stays and the Codable conformances, the readers from a parsed `JSONValue`, the check that
// kept subcollections as unparsed text, and the fallback to JSONDecoder are gone. Errors come from the reader
// and say what is wrong at which byte; a member named twice takes its last value.

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
            }
        }
        w.raw("}")
    }
}

extension JSONWriter {
    /// Links as compact link objects, the shape of a subcollection such as "landmarks": "href", and "type",
    /// "title", "rel" (a string when there is one), "properties" and "children" (when not empty) where the link
    /// has them, in name order; a duration and unnamed members are left out.
    mutating func linkObjects(_ links: [Link]) throws {
        try linkArray(links) { w, l in
            w.raw(UInt8(ascii: "{"))
            if let children = l.pointee.children, !children.isEmpty {
                w.raw("\"children\":"); try w.linkObjects(children); w.raw(UInt8(ascii: ","))
            }
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

// MARK: Reading

extension JSONReader.Cursor {
    /// The name of an object's member, at its opening quote; read through its closing quote.
    struct Name {
        /// The name's bytes as they stand, when it has no escape.
        let bytes: UnsafeBufferPointer<UInt8>
        let ascii: Bool
        /// The name, when it has escapes ("hr\u0065f" is "href").
        let unescaped: String?

        /// Whether this is `word`: compared in place, without making a String, for the names of the shapes.
        func `is`(_ word: StaticString) -> Bool {
            if let unescaped { return word.withUTF8Buffer { unescaped.utf8.elementsEqual($0) } }
            return bytes.count == word.utf8CodeUnitCount
                && (bytes.count == 0 || memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0)
        }

        func string(at i: Int) throws -> String {
            if let unescaped { return unescaped }
            if ascii { return String(decoding: bytes, as: UTF8.self) }
            guard let s = String(validating: bytes, as: UTF8.self) else {
                throw JSONError("a name that is not UTF-8 before byte \(i)")
            }
            return s
        }
    }

    /// The member name at the cursor and its colon.
    mutating func name() throws -> Name {
        guard try peek() == UInt8(ascii: "\"") else { throw JSONError("expected a name at byte \(i)") }
        let start = i + 1
        let (end, ascii) = plainRun(from: start)
        let name: Name
        if end < buffer.count, buffer[end] == 0x22 {
            i = end + 1
            name = Name(bytes: UnsafeBufferPointer(rebasing: buffer[start..<end]), ascii: ascii, unescaped: nil)
        } else {
            name = Name(bytes: UnsafeBufferPointer(start: nil, count: 0), ascii: true, unescaped: try string())
        }
        try colon()
        return name
    }

    /// A member a shape does not name, kept as it is.
    mutating func other(_ name: Name, into extra: inout [String: JSONValue], depth: Int) throws {
        extra[try name.string(at: i)] = try value(depth: depth)
    }

    mutating func strings(depth: Int) throws -> [String]? {
        switch try value(depth: depth) {
        case .null: return nil
        case .array(let a):
            return try a.map { item in
                guard case .string(let s) = item else {
                    throw JSONError("expected an array of strings before byte \(i)")
                }
                return s
            }
        default: throw JSONError("expected an array of strings before byte \(i)")
        }
    }

    /// A locator: "href" is required; "type" may lack (a locator typed by hand, "--locator", often has none).
    mutating func locator() throws -> Locator {
        let start = i
        var href: String?
        var locator = Locator(href: "", type: "")
        try members { c in
            let name = try c.name()
            if name.is("href") {
                guard try c.peek() == UInt8(ascii: "\"") else {
                    throw JSONError("\"href\" is not a string at byte \(c.i)")
                }
                href = try c.string()
            } else if name.is("type") {
                locator.type = try c.optionalString() ?? ""
            } else if name.is("title") {
                locator.title = try c.optionalString()
            } else if name.is("locations") {
                locator.locations = Locator.Locations()
                if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return }
                try c.members { l in
                    let name = try l.name()
                    if name.is("position") {
                        let at = l.i
                        if let n = try l.optionalDouble() {
                            guard let exact = Int(exactly: n) else {
                                throw JSONError("\"position\" is not a whole number at byte \(at)")
                            }
                            locator.locations.position = exact
                        } else {
                            locator.locations.position = nil
                        }
                    } else if name.is("progression") {
                        locator.locations.progression = try l.optionalDouble()
                    } else if name.is("totalProgression") {
                        locator.locations.totalProgression = try l.optionalDouble()
                    } else if name.is("fragments") {
                        locator.locations.fragments = try l.strings(depth: 3)
                    } else {
                        try l.other(name, into: &locator.locations.extra, depth: 3)
                    }
                }
            } else if name.is("text") {
                locator.text = nil
                if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return }
                var t = Locator.Text()
                try c.members { m in
                    let name = try m.name()
                    if name.is("before") {
                        t.before = try m.optionalString()
                    } else if name.is("highlight") {
                        t.highlight = try m.optionalString()
                    } else if name.is("after") {
                        t.after = try m.optionalString()
                    } else {
                        _ = try m.value(depth: 3)
                    }  // Readium's text has these three; others are not kept
                }
                locator.text = t
            } else {
                try c.other(name, into: &locator.extra, depth: 2)
            }
        }
        guard let href else { throw JSONError("a locator without \"href\" at byte \(start)") }
        locator.href = href
        return locator
    }

    /// A link. A loop rather than `members` and its closure: the variables a closure captures live on the
    /// heap, behind exclusivity checks, and a manifest of a long book has thousands of links.
    mutating func link(depth: Int) throws -> Link {
        guard depth < JSONReader.maxDepth else {
            throw JSONError("nested deeper than \(JSONReader.maxDepth) levels at byte \(i)")
        }
        guard try peek() == UInt8(ascii: "{") else { throw JSONError("expected a link (an object) at byte \(i)") }
        let start = i
        i += 1
        var href: String?
        var type: String?, title: String?, rel: [String]?
        var properties: [String: JSONValue]?, duration: Double?, children: [Link]?
        var extra: [String: JSONValue] = [:]
        skipSpace()
        if try peek() == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipSpace()
                let name = try name()
                if name.is("href") {
                    guard try peek() == UInt8(ascii: "\"") else {
                        throw JSONError("\"href\" is not a string at byte \(i)")
                    }
                    href = try string()
                } else if name.is("type") {
                    type = try optionalType()
                } else if name.is("title") {
                    title = try optionalString()
                } else if name.is("rel") {
                    // A string or an array of strings in the wild.
                    if try peek() == UInt8(ascii: "\"") {
                        rel = [try string()]
                    } else {
                        rel = try strings(depth: depth + 1)
                    }
                } else if name.is("properties") {
                    switch try value(depth: depth + 1) {
                    case .null: properties = nil
                    case .object(let o): properties = o
                    default: throw JSONError("\"properties\" is not an object before byte \(i)")
                    }
                } else if name.is("duration") {
                    // A duration that is no number is left out: it only informs, and plugins write strings.
                    if case .number(let d) = try value(depth: depth + 1) { duration = d } else { duration = nil }
                } else if name.is("children") {
                    if try peek() == UInt8(ascii: "n") {
                        _ = try literal("null", .null); children = nil
                    } else {
                        children = try links(depth: depth + 1)
                    }
                } else {
                    try other(name, into: &extra, depth: depth + 1)
                }
                skipSpace()
                let b = try peek()
                i += 1
                if b == UInt8(ascii: ",") { continue }
                if b == UInt8(ascii: "}") { break }
                throw JSONError("expected , or } at byte \(i - 1)")
            }
        }
        guard let href else { throw JSONError("a link without \"href\" at byte \(start)") }
        return Link(
            href: href, type: type, title: title, rel: rel, properties: properties, duration: duration,
            children: children, extra: extra)
    }

    mutating func links(depth: Int) throws -> [Link] {
        try elements { try $0.link(depth: depth + 1) }
    }

    /// A manifest: "metadata" (an object) and "readingOrder" are required.
    mutating func manifest() throws -> Manifest {
        var metadata: [String: JSONValue]?
        var readingOrder: [Link]?
        var context: JSONValue?
        var links: [Link]?
        var resources: [Link]?
        var toc: [Link]?
        var others: [String: Manifest.Member] = [:]
        func optionalLinks(_ c: inout Self) throws -> [Link]? {
            if try c.peek() == UInt8(ascii: "n") { _ = try c.literal("null", .null); return nil }
            return try c.links(depth: 1)
        }
        try members { c in
            let name = try c.name()
            if name.is("metadata") {
                guard case .object(let o) = try c.value(depth: 1) else {
                    throw JSONError("\"metadata\" is not an object before byte \(c.i)")
                }
                metadata = o
            } else if name.is("readingOrder") {
                readingOrder = try c.links(depth: 1)
            } else if name.is("@context") {
                let value = try c.value(depth: 1)
                context = value == .null ? nil : value
            } else if name.is("links") {
                links = try optionalLinks(&c)
            } else if name.is("resources") {
                resources = try optionalLinks(&c)
            } else if name.is("toc") {
                toc = try optionalLinks(&c)
            } else {
                others[try name.string(at: c.i)] = .value(try c.value(depth: 1))
            }
        }
        guard let metadata else { throw JSONError("a manifest without \"metadata\"") }
        guard let readingOrder else { throw JSONError("a manifest without \"readingOrder\"") }
        var manifest = Manifest(
            metadata: metadata, links: links ?? [], readingOrder: readingOrder,
            resources: resources, toc: toc)
        manifest.context = context
        manifest.others = others
        return manifest
    }
}

/// A shape read by the cursor: what `ReadiumJSON.decode` and the Codable conformances read with.
protocol ReadiumShape {
    static func read(_ c: inout JSONReader.Cursor) throws -> Self
}

extension Locator: ReadiumShape {
    static func read(_ c: inout JSONReader.Cursor) throws -> Locator { try c.locator() }
}

extension Link: ReadiumShape {
    static func read(_ c: inout JSONReader.Cursor) throws -> Link { try c.link(depth: 0) }
}

extension Manifest: ReadiumShape {
    static func read(_ c: inout JSONReader.Cursor) throws -> Manifest { try c.manifest() }
}

extension Array: ReadiumShape where Element: ReadiumShape {
    static func read(_ c: inout JSONReader.Cursor) throws -> [Element] { try c.elements { try Element.read(&$0) } }
}

extension JSONReader {
    public static func locators(_ data: Data) throws -> [Locator] { try whole(data, [Locator].read) }
    public static func manifest(_ data: Data) throws -> Manifest { try whole(data, Manifest.read) }
    public static func locator(_ data: Data) throws -> Locator { try whole(data, Locator.read) }

    /// One value read by `read` from the whole of `data`, with nothing but white space around it.
    static func whole<S: ReadiumShape>(_ data: Data, as _: S.Type) throws -> S { try whole(data, S.read) }

    static func whole<T>(_ data: Data, _ read: (inout Cursor) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            var c = Cursor(
                buffer: UnsafeBufferPointer(
                    start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
            c.skipSpace()
            let out = try read(&c)
            c.skipSpace()
            guard c.i == c.buffer.count else { throw JSONError("trailing characters at byte \(c.i)") }
            return out
        }
    }
}

// MARK: Codable

// The shapes are Codable so that they can be members of the host's Codable documents (a page, a bookmark,
// search results), written with the encoder's own options (sorted, indented). Both directions go through the
// one writer and the one reader above, by way of JSONValue, so the members of a shape are defined once.

extension ReadiumJSON {
    static func encode<T: JSONWritable>(_ value: T, to encoder: Encoder) throws {
        var writer = JSONWriter(capacity: 256)
        try value.write(to: &writer)
        try JSONReader.parse(writer.data()).encode(to: encoder)
    }

    static func decode<T: ReadiumShape>(_ type: T.Type, from decoder: Decoder) throws -> T {
        var writer = JSONWriter(capacity: 256)
        try JSONValue(from: decoder).write(to: &writer)
        do {
            return try JSONReader.whole(writer.data(), T.read)
        } catch let error as JSONError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }
}

extension Locator: Codable {
    public init(from decoder: Decoder) throws { self = try ReadiumJSON.decode(Locator.self, from: decoder) }
    public func encode(to encoder: Encoder) throws { try ReadiumJSON.encode(self, to: encoder) }
}

extension Link: Codable {
    public init(from decoder: Decoder) throws { self = try ReadiumJSON.decode(Link.self, from: decoder) }
    public func encode(to encoder: Encoder) throws { try ReadiumJSON.encode(self, to: encoder) }
}

extension Manifest: Codable {
    public init(from decoder: Decoder) throws { self = try ReadiumJSON.decode(Manifest.self, from: decoder) }
    public func encode(to encoder: Encoder) throws { try ReadiumJSON.encode(self, to: encoder) }
}

extension ReadiumJSON {
    /// Compact JSON of a value the writer knows; nil for any other value.
    static func written(_ value: Any) throws -> Data? {
        guard let writable = value as? JSONWritable else { return nil }
        var writer = JSONWriter(capacity: 4096)
        try writable.write(to: &writer)
        return writer.data()
    }

    /// Reads JSON: the Readium shapes (and arrays of them) and `JSONValue` with the reader, whose errors say
    /// what is wrong at which byte; any other type with JSONDecoder.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let shape = T.self as? ReadiumShape.Type { return try JSONReader.whole(data, as: shape) as! T }
        if T.self == JSONValue.self { return try JSONReader.parse(data) as! T }
        return try JSONDecoder().decode(type, from: data)
    }
}
