import Foundation
import Host

/// What the browser's reader needs of a book on the shelf: its record read in process, the rest asked of the host
/// through `HostAdapter` (the same commands and documents as the command line) and kept while the server runs: a
/// book's file does not change under a library id without `shelf add`, which gives it a new path, and every cache
/// here is keyed by path.
final class ReaderBooks: @unchecked Sendable {
    let host: HostAdapter
    private unowned let app: WebApp
    private let lock = NSLock()
    private var paths: [String: String] = [:]
    private var manifests: [String: [String: Any]] = [:]
    private var positions: [String: [[String: Any]]] = [:]
    private var tocs: [String: [Any]] = [:]
    let resources = ResourceCache(budget: 64 << 20)

    init(host: HostAdapter, app: WebApp) {
        self.host = host
        self.app = app
    }

    /// The shelf's record of a book (docs/json.md, ShelfBook), by library id: as it is now, progress included.
    func book(_ id: String) throws -> [String: Any] {
        let record = try ShelfRecord.find(id, in: app).record
        if let path = record["path"] as? String { lock.withLock { paths[id] = path } }
        return record
    }

    /// The file of a book by library id, looked up once: resources are asked for many times a page.
    func path(id: String) throws -> String {
        if let known = lock.withLock({ paths[id] }) { return known }
        return try path(of: try book(id))
    }

    func path(of book: [String: Any]) throws -> String {
        guard let path = book["path"] as? String else { throw WebError(502, "The shelf's record of this book has no file") }
        return path
    }

    /// The book's Readium Web Publication Manifest as the plugin wrote it.
    func manifest(_ book: [String: Any]) throws -> [String: Any] { try manifest(path: try path(of: book)) }

    func manifest(path: String) throws -> [String: Any] {
        if let known = lock.withLock({ manifests[path] }) { return known }
        guard let manifest = try host.object(["manifest", path]) as? [String: Any] else {
            throw WebError(502, "The manifest of \(path) is not a JSON object")
        }
        lock.withLock { manifests[path] = manifest }
        return manifest
    }

    /// The book's pages as the command line counts them (Readium positions), one entry per reading-order
    /// resource: `{"href", "start", "count"}`, pages `start ..< start + count` at progressions `i / count`. The
    /// reader turns a place in a chapter into a page with it, without asking the host.
    func pageRanges(_ book: [String: Any]) throws -> [[String: Any]] {
        let path = try path(of: book)
        if let known = lock.withLock({ positions[path] }) { return known }
        let locators = (try host.object(["positions", path]) as? [[String: Any]]) ?? []
        var ranges: [[String: Any]] = []
        for locator in locators {
            guard let href = locator["href"] as? String,
                  let position = (locator["locations"] as? [String: Any])?["position"] as? Int else { continue }
            if let last = ranges.last, last["href"] as? String == href, let count = last["count"] as? Int {
                ranges[ranges.count - 1]["count"] = count + 1
            } else {
                ranges.append(["href": href, "start": position, "count": 1])
            }
        }
        lock.withLock { positions[path] = ranges }
        return ranges
    }

    /// The table of contents, flattened with each entry's depth and page (`shelf read BOOK --toc 0`).
    func toc(_ book: [String: Any], id: String) throws -> [Any] {
        let path = try path(of: book)
        if let known = lock.withLock({ tocs[path] }) { return known }
        let entries = (try host.object(["read", id, "--toc", "0"]) as? [Any]) ?? []
        lock.withLock { tocs[path] = entries }
        return entries
    }

    /// One resource of the book (a chapter, an image, a style sheet), with the media type the manifest gives it.
    func resource(path: String, href: String) throws -> (data: Data, type: String) {
        let manifest = try manifest(path: path)
        let links = ["readingOrder", "resources", "links"].flatMap { (manifest[$0] as? [[String: Any]]) ?? [] }
        guard let link = links.first(where: { ($0["href"] as? String) == href }) else {
            throw WebError(404, "\(href) is not a resource of this book")
        }
        let type = (link["type"] as? String) ?? "application/octet-stream"
        let key = path + "\n" + href
        if let data = resources.get(key) { return (data, type) }
        let data = try host.json(["resource", path, href, "-o", "-"])
        resources.put(key, data)
        return (data, type)
    }
}

/// Resources read from books, kept up to a number of bytes; the least recently used go first.
final class ResourceCache: @unchecked Sendable {
    private let budget: Int
    private let lock = NSLock()
    private var entries: [String: (data: Data, used: UInt64)] = [:]
    private var size = 0
    private var clock: UInt64 = 0

    init(budget: Int) { self.budget = budget }

    func get(_ key: String) -> Data? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.data, clock)
            return entry.data
        }
    }

    func put(_ key: String, _ data: Data) {
        guard data.count <= budget / 4 else { return }
        lock.withLock {
            clock += 1
            if let old = entries.updateValue((data, clock), forKey: key) { size -= old.data.count }
            size += data.count
            while size > budget, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                size -= oldest.value.data.count
                entries[oldest.key] = nil
            }
        }
    }
}
