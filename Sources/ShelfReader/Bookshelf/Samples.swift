import ShelfLibrary
import ShelfCore
import ShelfValues
import Foundation

extension Bookshelf {
    /// The sample or preview link of a catalog entry (OPDS `…/acquisition/sample`, `…/acquisition/preview`, or
    /// `preview`), a file shelf can open preferred.
    public static func sampleLink(_ entry: CatalogEntry, openable: Set<String>) -> CatalogLink? {
        let samples = entry.links.filter { link in
            let rel = link.rel ?? ""
            return rel == Rel.sample || rel == Rel.preview || rel == "http://opds-spec.org/acquisition/preview"
        }
        return samples.first { link in
            guard
                let type = link.type?.split(separator: ";").first.map({
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                })
            else { return false }
            return openable.contains(type)
        } ?? samples.first
    }

    /// Downloads the sample of `entry` into `data/samples` and puts it on the shelf, marked as a sample. A sample
    /// already there is opened again as it is (with its place kept).
    public func addSample(
        _ entry: CatalogEntry, accountID: String, openable: Set<String>,
        http: HTTPClient
    ) throws -> ShelfBook {
        let id = "sample:\(accountID):\(entry.id)"
        if let existing = try database.shelfBook(id: id), let path = existing.book.path,
            FileManager.default.fileExists(atPath: path)
        {
            return existing
        }
        guard let link = Self.sampleLink(entry, openable: openable) else {
            throw ShelfError(
                .unavailable, "the library offers no sample of \(entry.title)", subject: entry.id,
                next: NextStep(
                    terminal:
                        "The whole book is the way to read it: `shelf book \(entry.id)` says how to borrow or reserve it.",
                    browser: "The whole book is the way to read it: its page says how to borrow or reserve it."))
        }
        guard let url = URL(string: link.href), let scheme = url.scheme?.lowercased() else {
            throw ShelfError(.badData, "the sample's address is not usable", subject: link.href)
        }
        let folder = samplesFolder
        // Fetched under a name of its own: `add` copies it to the sample's place, then this file goes.
        var ext = url.pathExtension.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        if ext.isEmpty || ext.count > 10 { ext = (link.type ?? "").contains("epub") ? "epub" : "book" }
        let name = "incoming-" + ShelfDirectoriesSafeName.fileName(for: id) + "." + ext
        let downloaded = folder.appendingPathComponent(name)
        switch scheme {
        case "http", "https":
            do {
                _ = try http.download(HTTPRequest(.get, url), to: downloaded)
            } catch let error as HTTPError {
                throw ShelfError(.temporary, "the sample could not be downloaded (\(error))", subject: link.href)
            }
        case "file":
            do {
                try ShelfDirectories.createDirectory(atPath: folder.path)
                if FileManager.default.fileExists(atPath: downloaded.path) {
                    try FileManager.default.removeItem(at: downloaded)
                }
                try FileManager.default.copyItem(atPath: url.path, toPath: downloaded.path)
            } catch {
                throw ShelfError(
                    .noInput, "the sample file cannot be read (\(error.localizedDescription))", subject: url.path)
            }
        default:
            throw ShelfError(.badData, "shelf does not fetch \(scheme): addresses", subject: link.href)
        }
        // A temporary copy, in the cache: one left behind is the cache's to prune.
        defer { try? FileManager.default.removeItem(at: downloaded) }
        let web = Self.webLink(entry)
        let added = try add(path: downloaded.path, storage: .sample, isSample: true, catalogLink: web, id: id)
        var record = added.book.book
        record.title = entry.title.isEmpty ? record.title : entry.title
        if !entry.authors.isEmpty { record.authors = entry.authors }
        record.sourceURI = link.href
        try database.putOnShelf(record, storage: .sample, isSample: true, link: web)
        return try database.shelfBook(id: id) ?? added.book
    }
}
