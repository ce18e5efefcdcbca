import Foundation

/// A scripted W3C Web Annotation service beside a `FakeLibrary`, as Palace runs one per patron: per book
/// (`/annotations/KEY/`) GET answers an `AnnotationCollection` whose `first.items` are the stored annotations, POST
/// stores one (a new `idling` position replaces the earlier one for the book, as Palace does) and answers it with
/// its `id`, and DELETE on an id removes it. Faults on demand; every annotation is kept for assertions.
public final class FakeAnnotationService: @unchecked Sendable {
    public let library: FakeLibrary
    private let lock = NSLock()
    private var stored: [String: [[String: Any]]] = [:]
    private var counter = 0
    private var faultResponse: LoopbackHTTPServer.Response?

    /// When set, every annotation request is answered with this (a 500, garbage) and nothing is stored.
    public var fault: LoopbackHTTPServer.Response? {
        get { lock.withLock { faultResponse } }
        set { lock.withLock { faultResponse = newValue } }
    }

    /// Serves annotations for the titles `ids` and makes the library's loans link to them.
    public init(library: FakeLibrary, ids: [String]) {
        self.library = library
        library.offersAnnotations = true
        for id in ids { install(FakeLibrary.key(id)) }
    }

    /// The annotations stored for title `id`, as JSON objects.
    public func annotations(_ id: String) -> [[String: Any]] { lock.withLock { stored[FakeLibrary.key(id)] ?? [] } }

    public func annotations(_ id: String, motivation: String) -> [[String: Any]] {
        annotations(id).filter { ($0["motivation"] as? String) == motivation }
    }

    private func install(_ key: String) {
        let server = library.server
        let path = "/annotations/\(key)/"
        server.route("GET", path) { [unowned self] request in
            guard library.isSignedIn(request) else { return .status(401) }
            if let fault { return fault }
            let items = annotations(key)
            let page: [String: Any] = ["id": library.url(path) + "?page=1", "type": "AnnotationPage", "items": items]
            let collection: [String: Any] = [
                "@context": ["http://www.w3.org/ns/anno.jsonld", "http://www.w3.org/ns/ldp.jsonld"],
                "id": library.url(path), "type": ["BasicContainer", "AnnotationCollection"],
                "total": items.count, "first": page
            ]
            return .data(
                try! JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys]),
                contentType: #"application/ld+json; profile="http://www.w3.org/ns/anno.jsonld""#)
        }
        server.route("POST", path) { [unowned self] request in
            guard library.isSignedIn(request) else { return .status(401) }
            if let fault { return fault }
            guard var annotation = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
                annotation["type"] as? String == "Annotation",
                let motivation = annotation["motivation"] as? String,
                let target = annotation["target"] as? [String: Any], target["source"] is String,
                let selector = target["selector"] as? [String: Any], selector["value"] is String
            else {
                return .text(
                    #"{"type": "http://librarysimplified.org/terms/problem/invalid-annotation-format", "title": "Invalid annotation format", "status": 400}"#,
                    status: 400, contentType: "application/api-problem+json")
            }
            let id: String = lock.withLock {
                counter += 1
                return library.url("/annotations/\(key)/item?n=\(counter)")
            }
            annotation["id"] = id
            lock.withLock {
                var list = stored[key] ?? []
                if motivation == "http://librarysimplified.org/terms/annotation/idling" {
                    list.removeAll { ($0["motivation"] as? String) == motivation }
                }
                list.append(annotation)
                stored[key] = list
            }
            return .data(
                try! JSONSerialization.data(withJSONObject: annotation, options: [.sortedKeys]),
                contentType: #"application/ld+json; profile="http://www.w3.org/ns/anno.jsonld""#)
        }
        server.route("DELETE", path + "item") { [unowned self] request in
            guard library.isSignedIn(request) else { return .status(401) }
            if let fault { return fault }
            let id = library.url(path + "item") + "?" + (request.query ?? "")
            let removed: Bool = lock.withLock {
                let before = stored[key]?.count ?? 0
                stored[key]?.removeAll { ($0["id"] as? String) == id }
                return (stored[key]?.count ?? 0) < before
            }
            return .status(removed ? 200 : 404)
        }
    }
}
