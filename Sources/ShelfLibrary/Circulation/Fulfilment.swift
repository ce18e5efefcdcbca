import ShelfCore
import ShelfValues
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Getting the file of a loan or an open-access title into shelf's data folder.
extension Circulation {

    /// The folder downloads go to: `data/downloads/<account>`.
    public static func downloadFolder(_ directories: ShelfDirectories, accountID: String) -> URL {
        directories.data.appendingPathComponent("downloads", isDirectory: true)
            .appendingPathComponent(ShelfDirectoriesSafeName.component(accountID), isDirectory: true)
    }

    /// Downloads the loan (or open-access title) `stored` into `folder`. `playable`, for an audiobook listened to
    /// as it arrives: the book is put on the shelf (its loan's book) once its first part is whole, and `playable`
    /// told its id then, from the downloader's thread, while the other parts go on arriving.
    public func download(
        _ stored: CatalogEntry, into folder: URL,
        progress: ((DownloadProgress) -> Void)? = nil, playable: ((String) -> Void)? = nil
    ) throws -> DownloadOutcome {
        let loan = try database.loans(accountID: account.id).first { $0.entry.id == stored.id }
        var entry = loan?.entry ?? stored
        var candidates = entry.openAccessLinks + entry.fulfilLinks
        if candidates.isEmpty {
            entry = refreshed(entry)
            candidates = entry.openAccessLinks + entry.fulfilLinks
        }
        guard !candidates.isEmpty else {
            if entry.borrowLink != nil {
                throw ShelfError(
                    .unavailable, "\(entry.title) is not on loan to you", subject: entry.id,
                    next: NextStep(
                        terminal: "Borrow it first: `shelf borrow \(Self.shortID(entry.id))`.", browser: "Get it first."
                    ))
            }
            throw ShelfError(.unavailable, "the library offers no file for \(entry.title)", subject: entry.id)
        }
        // A supported path first; failing that, the first path, so a DRM file is kept for the tool that can open it.
        let ranked = candidates.sorted { a, b in
            let sa = AcquisitionPath.paths(of: a).contains { $0.isSupported(by: openable) }
            let sb = AcquisitionPath.paths(of: b).contains { $0.isSupported(by: openable) }
            return sa && !sb
        }
        let link = ranked[0]
        let path =
            AcquisitionPath.paths(of: link).first { $0.isSupported(by: openable) } ?? AcquisitionPath.paths(of: link)[0]
        guard let url = URL(string: link.href) else {
            throw ShelfError(.badData, "the download address is not usable", subject: link.href)
        }
        let name = ShelfDirectoriesSafeName.fileName(for: entry.id)
        var outcome = try fetchFile(
            url, declared: link.type, path: path, folder: folder, name: name, depth: 0,
            entry: entry, progress: progress)
        outcome.entry = entry
        if outcome.supported, outcome.mediaType == "application/audiobook+json", let source = outcome.source {
            // An audiobook: the manifest goes to the part downloader, which fetches every track next to it.
            // On 401/403 (signed URLs expire) the manifest is fetched again through the loan's fulfil link.
            let refresh = { [self] () throws -> (data: Data, url: URL) in
                let again = try fetchFile(
                    url, declared: link.type, path: path, folder: folder, name: name + ".refresh", depth: 0,
                    entry: entry, progress: nil)
                // The manifest was read from it (below); a leftover in the download folder is overwritten next time.
                defer { try? FileManager.default.removeItem(atPath: again.path) }
                return (try Data(contentsOf: URL(fileURLWithPath: again.path)), again.source ?? url)
            }
            let shelve = { [outcome] in try self.shelve(outcome, entry: entry, from: link, onLoan: loan != nil) }
            let bookID = Self.bookID(account: account, entry: entry)
            let once = NSLock()
            var told = false
            let arrived = playable.map { playable in
                { (index: Int) in
                    // The first part makes the book playable: it goes on the shelf now. Should that fail, the
                    // player is not opened; the download goes on and records the book at its end, or says why not.
                    guard index == 0, once.withLock({ !told }), (try? shelve()) != nil else { return }
                    once.withLock { told = true }
                    playable(bookID)
                }
            }
            outcome.parts = try AudiobookParts.download(
                manifest: URL(fileURLWithPath: outcome.path), source: source, client: client.http,
                store: DownloadStore(database: database),
                id: bookID, title: entry.title, refresh: refresh,
                progress: progress, arrived: arrived)
            outcome.bytes += outcome.parts.reduce(0) { $0 + $1.bytes }
        }
        if outcome.supported { try shelve(outcome, entry: entry, from: link, onLoan: loan != nil) }
        return outcome
    }

    /// The id of the book a download of `entry` puts on the shelf (and of its parts' download record).
    static func bookID(account: AccountRecord, entry: CatalogEntry) -> String { "catalog:\(account.id):\(entry.id)" }

    /// Puts a download on the shelf as its loan's book.
    private func shelve(_ outcome: DownloadOutcome, entry: CatalogEntry, from link: CatalogLink, onLoan: Bool) throws {
        let bookID = Self.bookID(account: account, entry: entry)
        try database.upsertBook(
            BookRecord(
                id: bookID, path: outcome.path, sourceURI: link.href, mediaType: outcome.mediaType,
                title: entry.title, authors: entry.authors))
        if onLoan { try database.setLoanBook(accountID: account.id, entryID: entry.id, bookID: bookID) }
    }

    private func fetchFile(
        _ url: URL, declared: String?, path: AcquisitionPath, folder: URL, name: String, depth: Int,
        entry: CatalogEntry, bearer: String? = nil,
        progress: ((DownloadProgress) -> Void)?
    ) throws -> DownloadOutcome {
        guard depth < 4 else {
            throw ShelfError(
                .badData, "the library's download leads through too many steps", subject: url.absoluteString)
        }
        let declaredBase = declared.map(MediaTypes.base) ?? ""
        // Steps shelf performs itself: an OPDS entry (fulfil answers with the loan) or a bearer-token document.
        if declaredBase == MediaTypes.bearerToken || (declared.map(MediaTypes.isOPDSEntry) ?? false) {
            let response = try client.send(HTTPRequest(.get, url, headers: ["Accept": declared ?? "*/*"]))
            try CatalogClient.requireSuccess(response)
            let remaining = Array(path.types.drop { MediaTypes.base($0) != declaredBase }.dropFirst())
            let nextPath = AcquisitionPath(rel: path.rel, href: path.href, types: remaining)
            // A step's answer is read whole before shelf follows it: a page of garbage is not a step.
            let step = declaredBase == MediaTypes.bearerToken ? "a bearer-token document" : "an OPDS entry"
            let unreadable = { (what: String) in
                ShelfError(
                    .temporary,
                    "the library answered the download of \(Self.quoted(entry.title)) with \(what) instead of "
                        + "\(step): nothing was kept", subject: url.absoluteString,
                    hint: "Libraries answer so while their servers are busy or down for maintenance: try again later.")
            }
            if MediaTypes.base(response.headers["Content-Type"] ?? "") == "text/html" {
                throw unreadable("a web page (text/html)")
            }
            if declaredBase == MediaTypes.bearerToken {
                guard let object = try? JSONSerialization.jsonObject(with: response.body) else {
                    throw unreadable("a document that is not JSON")
                }
                guard let json = object as? [String: Any],
                    let token = json["access_token"] as? String, let location = json["location"] as? String,
                    let target = URL(string: location), ["http", "https"].contains(target.scheme?.lowercased() ?? "")
                else {
                    throw ShelfError(
                        .badData, "the library's bearer-token document lacks access_token or a usable location",
                        subject: url.absoluteString)
                }
                return try fetchFile(
                    target, declared: remaining.first, path: nextPath, folder: folder, name: name,
                    depth: depth + 1, entry: entry, bearer: token, progress: progress)
            }
            guard let feed = try? CatalogDocument.parse(response.body, url: response.url) else {
                throw unreadable("a document that could not be read")
            }
            guard let inner = feed.entries.first, let next = (inner.fulfilLinks + inner.openAccessLinks).first,
                let nextURL = URL(string: next.href)
            else {
                throw ShelfError(
                    .badData, "the library's answer holds no file to download", subject: url.absoluteString)
            }
            return try fetchFile(
                nextURL, declared: next.type, path: AcquisitionPath.paths(of: next)[0], folder: folder,
                name: name, depth: depth + 1, entry: entry, progress: progress)
        }
        let endType = path.types.last ?? declared ?? "application/octet-stream"
        let destination = folder.appendingPathComponent(name + "." + Self.fileExtension(for: declared ?? endType))
        if url.isFileURL {
            return try copyLocal(url, to: destination, declared: declared, path: path, entry: entry)
        }
        var request = HTTPRequest(.get, url)
        if let bearer { request.setBearerToken(bearer) } else { try client.authenticator?.authorize(&request) }
        // The answer lands beside the destination and replaces it only once it is seen to be what was asked for: a
        // page of garbage never takes the place of a book downloaded before.
        let incoming = destination.appendingPathExtension("incoming")
        let result = try CatalogClient.mapErrorsAllowingStatus(url: url) {
            try client.http.download(request, to: incoming, progress: progress)
        }
        let expected = declared ?? endType
        if let problem = DownloadedFileCheck.problem(
            at: incoming.path, expected: expected, served: result.headers["Content-Type"])
        {
            // Tidying before the error below, which is what the patron needs; the next download replaces it.
            try? FileManager.default.removeItem(at: incoming)
            throw ShelfError(
                .temporary,
                "the library answered the download of \(Self.quoted(entry.title)) with \(problem) instead of "
                    + "\(MediaTypes.described(expected)): nothing was kept", subject: url.absoluteString,
                hint: "Libraries answer so while their servers are busy or down for maintenance: try again later. "
                    + "If it lasts, tell the library.")
        }
        guard rename(incoming.path, destination.path) == 0 else {
            // As above.
            try? FileManager.default.removeItem(at: incoming)
            throw ShelfError(
                .ioError, "the download could not be put in place (\(String(cString: strerror(errno))))",
                subject: destination.path)
        }
        let received = declared ?? result.headers["Content-Type"] ?? endType
        let supported = path.isSupported(by: openable) || openable.contains(MediaTypes.base(received))
        let protection = supported ? nil : (path.protection ?? MediaTypes.protectionName(received))
        return DownloadOutcome(
            entry: entry, path: destination.path, mediaType: MediaTypes.base(received), bytes: result.bytes,
            supported: supported, protection: protection, source: result.url)
    }

    /// A static catalog on disk: its files are copied into shelf's folder, as a download would be.
    private func copyLocal(
        _ url: URL, to destination: URL, declared: String?, path: AcquisitionPath,
        entry: CatalogEntry
    ) throws -> DownloadOutcome {
        // Not there or not readable: said just below ("not there"), and the copy would say why.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw ShelfError(.noInput, "the catalog's file is not there", subject: url.path)
        }
        let bytes = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        try ShelfDirectories.createDirectory(atPath: destination.deletingLastPathComponent().path)
        let part = destination.path + ".part"
        // A leftover of an earlier copy, usually absent; the copy below fails if it is in the way.
        try? FileManager.default.removeItem(atPath: part)
        do {
            try FileManager.default.copyItem(atPath: url.path, toPath: part)
            guard rename(part, destination.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw ShelfError(
                .ioError, "the file could not be copied (\(error.localizedDescription))", subject: url.path)
        }
        let type = declared ?? path.endType
        let supported = path.isSupported(by: openable) || openable.contains(MediaTypes.base(type))
        return DownloadOutcome(
            entry: entry, path: destination.path, mediaType: MediaTypes.base(type), bytes: bytes,
            supported: supported, protection: supported ? nil : path.protection, source: url)
    }

    static func fileExtension(for type: String) -> String {
        let base = MediaTypes.base(type)
        switch base {
        case "application/epub+zip": return "epub"
        case "application/pdf": return "pdf"
        case _ where MediaTypes.adobeACSM.contains(base): return "acsm"
        case MediaTypes.lcpLicense: return "lcpl"
        case "application/audiobook+json", "application/webpub+json": return "json"
        case "application/audiobook+zip": return "audiobook"
        case "application/audiobook+lcp": return "lcpa"
        default: return "bin"
        }
    }

    static func shortID(_ id: String) -> String { id }
}

extension CatalogClient {
    /// Like `mapErrors`, but a download's HTTP status errors are worded as circulation errors (401 → sign in).
    static func mapErrorsAllowingStatus<T>(url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HTTPError {
            if let status = error.status {
                if status == 401 {
                    throw ShelfError(
                        .permission, "the library asks you to sign in to download this", subject: url.absoluteString,
                        next: NextStep(
                            terminal: "Sign in with `shelf login`.", browser: "Sign in on the Accounts page."))
                }
                throw ShelfError(status >= 500 ? .temporary : .unavailable, error.description)
            }
            return try mapErrors(url: url) { throw error }
        }
    }
}
