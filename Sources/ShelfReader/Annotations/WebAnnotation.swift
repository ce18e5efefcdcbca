import Foundation
import Readium

/// One W3C Web Annotation as Library Simplified / Palace servers keep them for a patron: a reading position
/// (`idling`) or a bookmark (`bookmarking`), aimed at a book by its catalog id, with the place as a Readium Locator
/// in a fragment selector, and the device and time in the body.
///
///     {"@context": "http://www.w3.org/ns/anno.jsonld", "type": "Annotation",
///      "motivation": "http://librarysimplified.org/terms/annotation/idling",
///      "target": {"source": "urn:isbn:…", "selector": {"type": "oa:FragmentSelector", "value": "{…locator…}"}},
///      "body": {"http://librarysimplified.org/terms/time": "2026-…Z", "http://librarysimplified.org/terms/device": "urn:uuid:…"}}
public struct WebAnnotation: Equatable, Sendable {
    public enum Motivation: String, Sendable {
        /// Where the patron is reading.
        case idling = "http://librarysimplified.org/terms/annotation/idling"
        /// A bookmark. Sent as the full IRI (what Palace servers check); `oa:bookmarking` and `bookmarking` are read too.
        case bookmarking = "http://www.w3.org/ns/oa#bookmarking"

        init?(wire: String) {
            switch wire {
            case Self.idling.rawValue: self = .idling
            case Self.bookmarking.rawValue, "oa:bookmarking", "bookmarking": self = .bookmarking
            default: return nil
            }
        }
    }

    public static let context = "http://www.w3.org/ns/anno.jsonld"
    static let timeKey = "http://librarysimplified.org/terms/time"
    static let deviceKey = "http://librarysimplified.org/terms/device"

    /// The server's id (a URL) once it has stored the annotation; nil for one not yet sent.
    public var id: String?
    public var motivation: Motivation
    /// The book's catalog id (the OPDS entry's `<id>`).
    public var source: String
    public var locator: Locator
    public var device: String?
    public var time: Date?

    public init(
        id: String? = nil, motivation: Motivation, source: String, locator: Locator, device: String?, time: Date?
    ) {
        self.id = id
        self.motivation = motivation
        self.source = source
        self.locator = locator
        self.device = device
        self.time = time
    }

    /// The JSON-LD document POSTed to the service.
    public func jsonObject() -> [String: Any] {
        var body: [String: Any] = [:]
        if let time { body[Self.timeKey] = AnnotationTime.string(time) }
        if let device { body[Self.deviceKey] = device }
        var object: [String: Any] = [
            "@context": Self.context,
            "type": "Annotation",
            "motivation": motivation.rawValue,
            "target": [
                "source": source,
                "selector": ["type": "oa:FragmentSelector", "value": locator.jsonString()]
            ] as [String: Any],
            "body": body
        ]
        if let id { object["id"] = id }
        return object
    }

    public func jsonData() -> Data {
        // Strings, numbers and dictionaries of them only: JSONSerialization cannot refuse them.
        (try? JSONSerialization.data(withJSONObject: jsonObject(), options: [.sortedKeys])) ?? Data()
    }

    /// Reads one annotation; nil for anything that is not a position or bookmark with a usable locator
    /// (other motivations, such as highlights, are left alone).
    public init?(jsonObject object: Any) {
        guard let object = object as? [String: Any],
            let motivationText = (object["motivation"] as? String) ?? (object["motivation"] as? [String])?.first,
            let motivation = Motivation(wire: motivationText),
            let target = object["target"] as? [String: Any],
            let source = target["source"] as? String, !source.isEmpty,
            let selector = target["selector"] as? [String: Any]
        else { return nil }
        let value = selector["value"]
        var locator: Locator?
        if let text = value as? String {
            // A selector that is no Locator makes no annotation of ours: nil, as the comment above says.
            locator = try? Locator.parse(text)
            // As above: a selector value that is no Locator makes no annotation of ours.
        } else if let inner = value as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: inner) {
            // As above.
            locator = try? Locator.parse(String(decoding: data, as: UTF8.self))
        }
        guard let locator, !locator.href.isEmpty else { return nil }
        let body = object["body"] as? [String: Any]
        self.init(
            id: (object["id"] as? String) ?? (object["@id"] as? String), motivation: motivation, source: source,
            locator: locator, device: body?[Self.deviceKey] as? String,
            time: (body?[Self.timeKey] as? String).flatMap(AnnotationTime.date))
    }
}
