import ShelfCore
import Foundation

/// The annotation list a service answers a GET with: an `AnnotationCollection` whose `first` page holds the `items`
/// (a bare `AnnotationPage` with `items` is read too). Anything else is refused as a whole, so that a broken answer
/// can never read as "no annotations".
public struct AnnotationCollection: Sendable {
    public var annotations: [WebAnnotation]

    public init(annotations: [WebAnnotation]) { self.annotations = annotations }

    public static func parse(_ data: Data) throws -> AnnotationCollection {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ShelfError(.badData, "the annotation service did not answer with JSON")
        }
        let types = Set(
            [object["type"], object["@type"]].flatMap { value -> [String] in
                (value as? String).map { [$0] } ?? (value as? [String]) ?? []
            })
        var items: [Any]?
        if let first = object["first"] as? [String: Any] {
            items = first["items"] as? [Any]
        } else if types.contains("AnnotationCollection"), (object["total"] as? Int) == 0 || object["first"] == nil {
            items = (object["items"] as? [Any]) ?? []
        } else if types.contains("AnnotationPage") {
            items = object["items"] as? [Any]
        }
        guard types.contains("AnnotationCollection") || types.contains("AnnotationPage"), let items else {
            throw ShelfError(.badData, "the annotation service's answer is not an annotation collection")
        }
        return AnnotationCollection(annotations: items.compactMap(WebAnnotation.init(jsonObject:)))
    }
}
