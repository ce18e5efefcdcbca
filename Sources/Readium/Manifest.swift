import Foundation

/// A Readium Web Publication Manifest: what a format plugin writes for an open publication.
/// Metadata stays open-ended (`JSONValue`) so that every format can say what it knows; the
/// accessors below read the parts the host relies on, in every shape Readium allows. Read and written as JSON
/// by ShapesJSON.swift.
public struct Manifest: Equatable, Sendable {
    public var context: JSONValue?
    public var metadata: [String: JSONValue]
    public var links: [Link]
    public var readingOrder: [Link]
    public var resources: [Link]?
    public var toc: [Link]?
    /// Every other top-level member: subcollections such as "landmarks" and "pageList", and
    /// extensions. Kept as they are, so a manifest survives the trip through the host whole.
    public var subcollections: [String: JSONValue] {
        get { others.mapValues(\.value) }
        set { others = newValue.mapValues { .value($0) } }
    }

    /// What `subcollections` holds: a subcollection of links the plugin set stays links, written straight from
    /// them (`setLinkObjects`); a long book's landmarks made into `JSONValue` objects were a third of building
    /// its manifest. Written in name order, like every object (`JSONWriter.object`).
    var others: [String: Member] = [:]

    enum Member: Equatable, Sendable {
        case value(JSONValue)
        /// Links written as compact link objects (`JSONWriter.linkObjects`).
        case linkObjects([Link])

        /// The member as a value: link objects as the writer writes them, read back.
        var value: JSONValue {
            switch self {
            case .value(let v): return v
            case .linkObjects(let links):
                var writer = JSONWriter(capacity: 4096)
                // Cannot fail: the writer refuses only a non-finite number, and link objects hold none but
                // what a link's properties hold; such a subcollection reads as null, as it cannot be written.
                guard (try? writer.linkObjects(links)) != nil else { return .null }
                // Cannot fail: the writer's output is JSON the reader takes.
                return (try? JSONReader.parse(writer.data())) ?? .null
            }
        }

        static func == (a: Member, b: Member) -> Bool { a.value == b.value }
    }

    static let known: Set<String> = ["@context", "metadata", "links", "readingOrder", "resources", "toc"]

    /// A subcollection made of links ("landmarks", "pageList", "loi", ...); none when it holds anything else.
    public func links(in subcollection: String) -> [Link] {
        // Read back from what is written (link objects leave durations out), so that a manifest and the same
        // manifest read again answer alike. An error here says the subcollection is not links, as [] says.
        guard let member = others[subcollection], let data = try? ReadiumJSON.written(member.value) else { return [] }
        return (try? ReadiumJSON.decode([Link].self, from: data)) ?? []
    }

    /// Sets a subcollection of links written as compact link objects (see `JSONWriter.linkObjects`).
    public mutating func setLinkObjects(_ links: [Link], in subcollection: String) {
        others[subcollection] = .linkObjects(links)
    }

    /// Sets a subcollection of links written whole; none (the member removed) for no links.
    public mutating func setLinks(_ links: [Link], in subcollection: String) {
        // An error here is a non-finite duration or property, which JSON cannot hold: the subcollection is
        // left out rather than written wrong.
        guard !links.isEmpty, let data = try? ReadiumJSON.written(links),
            let value = try? JSONReader.parse(data)
        else {
            others[subcollection] = nil
            return
        }
        others[subcollection] = .value(value)
    }

    public init(
        metadata: [String: JSONValue], links: [Link] = [], readingOrder: [Link],
        resources: [Link]? = nil, toc: [Link]? = nil
    ) {
        self.context = .string("https://readium.org/webpub-manifest/context.jsonld")
        self.metadata = metadata
        self.links = links
        self.readingOrder = readingOrder
        self.resources = resources
        self.toc = toc
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

    public static func parse(_ data: Data) throws -> Manifest { try JSONReader.manifest(data) }
}
