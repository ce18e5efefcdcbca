import Foundation

/// A Readium Web Publication Manifest: what a format plugin writes for an open publication.
/// Metadata stays open-ended (`JSONValue`) so that every format can say what it knows; the
/// accessors below read the parts the host relies on, in every shape Readium allows.
public struct Manifest: Codable, Equatable, Sendable {
    public var context: JSONValue?
    public var metadata: [String: JSONValue]
    public var links: [Link]
    public var readingOrder: [Link]
    public var resources: [Link]?
    public var toc: [Link]?
    /// Every other top-level member: subcollections such as "landmarks" and "pageList", and
    /// extensions. Kept as they are, so a manifest survives the trip through the host whole.
    /// Each read makes the members that are kept otherwise (see `others`) into values; to read one
    /// subcollection of links, `links(in:)` makes only that one.
    public var subcollections: [String: JSONValue] {
        get { others.mapValues(\.value) }
        set { others = newValue.mapValues { .value($0) } }
    }

    /// What `subcollections` holds, each member in the form that was cheapest to get: the host reads no
    /// subcollection, yet a long book's landmarks as `JSONValue` objects were a third of building its manifest,
    /// and almost half of reading it. Written in name order, like every object (`JSONWriter.object`).
    var others: [String: Member] = [:]

    enum Member: Equatable, Sendable {
        case value(JSONValue)
        /// Link objects as `JSONValue(linkObjects:)` makes them, written straight from the links.
        case linkObjects([Link])
        /// JSON text read from a manifest, checked as it was read to be what `JSONReader` takes, and made into
        /// a value only when asked for.
        case text([UInt8])

        var value: JSONValue {
            switch self {
            case .value(let v): return v
            case .linkObjects(let links): return JSONValue(linkObjects: links)
            case .text(let bytes):
                if let v = bytes.withUnsafeBufferPointer({ try? JSONReader.parse($0) }) { return v }
                // Not reached: the text was checked. Should the check ever pass what the reader refuses,
                // Foundation's reading is the fallback, as for a manifest the reader does not take.
                return (try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))) ?? .null
            }
        }

        static func == (a: Member, b: Member) -> Bool { a.value == b.value }
    }

    enum CodingKeys: String, CodingKey {
        case context = "@context", metadata, links, readingOrder, resources, toc
    }

    static let known: Set<String> = ["@context", "metadata", "links", "readingOrder", "resources", "toc"]

    /// A subcollection made of links ("landmarks", "pageList", "loi", ...).
    public func links(in subcollection: String) -> [Link] {
        guard let value = others[subcollection]?.value else { return [] }
        if let links = try? [Link](json: value) { return links }
        guard let data = try? JSONEncoder().encode(value) else { return [] }
        return (try? JSONDecoder().decode([Link].self, from: data)) ?? []
    }

    /// Sets a subcollection of links written as compact link objects (see `JSONValue(linkObjects:)`).
    public mutating func setLinkObjects(_ links: [Link], in subcollection: String) {
        others[subcollection] = .linkObjects(links)
    }

    public mutating func setLinks(_ links: [Link], in subcollection: String) {
        guard !links.isEmpty, let data = try? ReadiumJSON.fastWire(links),
              let value = try? JSONReader.parse(data) else {
            others[subcollection] = nil
            return
        }
        others[subcollection] = .value(value)
    }

    public init(metadata: [String: JSONValue], links: [Link] = [], readingOrder: [Link],
                resources: [Link]? = nil, toc: [Link]? = nil) {
        self.context = .string("https://readium.org/webpub-manifest/context.jsonld")
        self.metadata = metadata
        self.links = links
        self.readingOrder = readingOrder
        self.resources = resources
        self.toc = toc
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        context = try c.decodeIfPresent(JSONValue.self, forKey: .context)
        metadata = try c.decode([String: JSONValue].self, forKey: .metadata)
        links = try c.decodeIfPresent([Link].self, forKey: .links) ?? []
        readingOrder = try c.decode([Link].self, forKey: .readingOrder)
        resources = try c.decodeIfPresent([Link].self, forKey: .resources)
        toc = try c.decodeIfPresent([Link].self, forKey: .toc)
        subcollections = try decoder.container(keyedBy: DynamicKey.self).remaining(except: Self.known)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(context, forKey: .context)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(links, forKey: .links)
        try c.encode(readingOrder, forKey: .readingOrder)
        try c.encodeIfPresent(resources, forKey: .resources)
        try c.encodeIfPresent(toc, forKey: .toc)
        var extra = encoder.container(keyedBy: DynamicKey.self)
        try extra.encode(remaining: subcollections, except: Self.known)
    }

    /// The title: a plain string, or a language map from which the first value in key order wins.
    public var title: String? {
        switch metadata["title"] {
        case .string(let s)?: return s
        case .object(let map)?: return map.keys.sorted().compactMap { map[$0]?.string }.first
        default: return nil
        }
    }

    /// Contributors under one role ("author", "narrator", ...): a string, an object with "name",
    /// or an array of either.
    public func contributors(_ role: String) -> [String] {
        func names(_ value: JSONValue) -> [String] {
            switch value {
            case .string(let s): return [s]
            case .object(let o):
                // {"name": "X"} or {"name": {"en": "X", "fr": "..."}} (a language map).
                switch o["name"] {
                case .object(let map)?: return map.keys.sorted().compactMap { map[$0]?.string }.prefix(1).map { $0 }
                case let name?: return names(name)
                case nil: return []
                }
            case .array(let a): return a.flatMap(names)
            default: return []
            }
        }
        return metadata[role].map(names) ?? []
    }

    public var authors: [String] { contributors("author") }

    public static func parse(_ data: Data) throws -> Manifest {
        try ReadiumJSON.decode(Manifest.self, from: data)
    }
}
