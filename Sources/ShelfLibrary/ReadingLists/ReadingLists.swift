import ShelfValues
import ShelfCore
import ConnectorShapes
import ShelfPlugins
import Foundation
import PluginAPI

/// Reading lists as the patron uses them: connect a service, pull its shelves, record finished books and push
/// them (once), and a wish list matched against every account's catalog.
public final class ReadingLists {
    public let database: LibraryDatabase
    /// Where connectors' secrets are kept: the Shelf's credential store, as its plugins' own calls find them.
    let store: CredentialStore
    /// The facade's plugins and router, asked for only when a connector or a book file is needed (the registry loads
    /// the plugins on first use).
    private let registry: () -> PluginRegistry
    private let router: () -> FormatRouter

    public init(
        database: LibraryDatabase, store: CredentialStore, registry: @escaping () -> PluginRegistry,
        router: @escaping () -> FormatRouter
    ) {
        self.database = database
        self.store = store
        self.registry = registry
        self.router = router
    }

    public func connector(_ service: String) throws -> Connector {
        try Connector.find(service: service, in: registry())
    }

    /// Plugin failures in a reading-list's words: a refused sign-in is a permission problem, not DRM.
    static func translate(_ error: Error, service: String) -> Error {
        guard let failure = error as? PluginCallError else { return error }
        switch failure.status {
        case SHELF_E_PROTECTED:
            return ShelfError(
                .permission, failure.description, subject: service,
                next: NextStep(terminal: "`shelf lists connect \(service)` sets up the connection again.", browser: nil)
            )
        case SHELF_E_IO:
            return ShelfError(.temporary, failure.description, subject: service, hint: "Try again later.")
        case SHELF_E_INVALID_ARGUMENT:
            return ShelfError(
                .usage, failure.description, subject: service,
                next: NextStep(terminal: "`shelf lists connect \(service)` lists the settings.", browser: nil))
        default:
            return failure.shelfError(subject: service)
        }
    }

    func connection(_ service: ConnectedService) throws -> Connector.Connection {
        let connector = try connector(service.service)
        do { return try connector.connect(settings: service.settings) } catch {
            throw Self.translate(error, service: service.service)
        }
    }

    // MARK: Connect

    /// What a service can do and which settings it takes (through `describe`, never `connect`), with what is stored.
    public func settings(service: String) throws -> ReadingListServiceSettings {
        let connector = try connector(service)
        let description: ConnectorDescription
        do { description = try connector.describe() } catch { throw Self.translate(error, service: service) }
        let stored = try database.services().first { $0.service == service }?.settings
        return ReadingListServiceSettings(
            service: service, pluginID: connector.plugin.descriptor.id, description: description, stored: stored)
    }

    /// Checks and stores a service's settings; secrets go to the credentials file through the plugin's own keys.
    /// Settings stored by an earlier connect and not given again are kept. A "file" setting must name a file.
    /// With `authorize`, runs the browser sign-in: `openBrowser` gets the address, a loopback listener the answer.
    public func connect(
        service: String, settings: [String: String], secrets: [String: String], authorize: Bool,
        openBrowser: (String) -> Void, timeout: TimeInterval = 300
    ) throws -> ReadingListConnectOutcome {
        let (connector, description, connection) = try storeSettings(
            service: service, settings: settings, secrets: secrets)
        var authorized = false
        if authorize {
            let signIn = try SignIn(service: service, connection: connection)
            openBrowser(signIn.url)
            try signIn.finish(timeout: timeout) {
                $0 == nil
                    ? .text("shelf is signed in. You can close this window.")
                    : .text("The sign-in did not complete. You can close this window.")
            }
            authorized = true
        }
        return ReadingListConnectOutcome(
            service: service, pluginID: connector.plugin.descriptor.id, description: description, authorized: authorized
        )
    }

    /// Stores the settings and secrets as `connect` does and starts the browser sign-in: the browser is sent to the
    /// answer's `url`, and `SignIn.finish` waits for it to come back (the browser app does both in turn).
    public func beginSignIn(service: String, settings: [String: String], secrets: [String: String]) throws -> SignIn {
        let (_, _, connection) = try storeSettings(service: service, settings: settings, secrets: secrets)
        return try SignIn(service: service, connection: connection)
    }

    /// A browser sign-in under way (OAuth for installed apps: RFC 8252's loopback redirect to 127.0.0.1 on this
    /// machine): the service's authorisation address, and the listener its redirect comes back to. The connector
    /// keeps what the sign-in needs (PKCE verifier, state, request token) among its secrets and checks them.
    /// Unchecked Sendable: only constants; made on one thread and finished on the one that waits for the browser.
    public final class SignIn: @unchecked Sendable {
        public let service: String
        /// Where the browser signs in.
        public let url: String
        let listener: LoopbackRedirect
        let connection: Connector.Connection

        init(service: String, connection: Connector.Connection) throws {
            self.service = service
            self.connection = connection
            listener = try LoopbackRedirect()
            do {
                url = try connection.authorizeBegin(redirectURI: listener.redirectURI).url
            } catch {
                throw ReadingLists.translate(error, service: service)
            }
        }

        /// Waits for the browser to come back, completes the sign-in (the host exchanges the code for the tokens,
        /// which the connector keeps among its secrets), then answers the browser with `reply` of how that went.
        public func finish(
            timeout: TimeInterval, isCancelled: () -> Bool = { false }, reply: (Error?) -> SignInReply
        ) throws {
            let callback = try listener.wait(timeout: timeout, isCancelled: isCancelled)
            do {
                try connection.authorizeComplete(query: callback.query)
                callback.answer(reply(nil))
            } catch {
                let translated = ReadingLists.translate(error, service: service)
                callback.answer(reply(translated))
                throw translated
            }
        }
    }

    /// Checks a service's settings and secrets, stores them, and opens a connection with them.
    private func storeSettings(service: String, settings: [String: String], secrets: [String: String]) throws -> (
        Connector, ConnectorDescription, Connector.Connection
    ) {
        let connector = try connector(service)
        let description: ConnectorDescription
        do { description = try connector.describe() } catch { throw Self.translate(error, service: service) }
        let known = Dictionary((description.settings ?? []).map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for key in Array(settings.keys) + Array(secrets.keys) where known[key] == nil {
            throw ShelfError(
                .usage, "\(service) has no setting \"\(key)\"",
                hint: "Settings: " + (description.settings ?? []).map(\.key).joined(separator: ", "))
        }
        for (key, _) in settings where known[key]?.secret == true {
            throw ShelfError(
                .usage,
                "\(key) is a secret: pass it with --secret \(key) (read from standard input), never on the command line"
            )
        }
        var plain =
            try database.services().first { $0.service == service && $0.pluginID == connector.plugin.descriptor.id }?
            .settings ?? [:]
        for (key, value) in settings {
            guard known[key]?.type == "file" else {
                plain[key] = value
                continue
            }
            let path = URL(fileURLWithPath: value).standardizedFileURL.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isReadableFile(atPath: path)
            else {
                throw ShelfError(
                    .noInput, "the setting \(key) names no readable file", subject: path,
                    hint: "Give the path of \(known[key]?.label ?? "the file"): --set \(key)=PATH.")
            }
            plain[key] = path
        }
        for (key, value) in secrets {
            // For the service (credentials/2) and for the plugin (credentials/1): connectors of either version find it.
            try ConnectorServices.setSecret(
                value, pluginID: connector.plugin.descriptor.id, service: service, key: key, in: store)
            try ConnectorServices.setSecret(value, pluginID: connector.plugin.descriptor.id, key: key, in: store)
        }
        let connection: Connector.Connection
        do { connection = try connector.connect(settings: plain) } catch {
            throw Self.translate(error, service: service)
        }
        try database.saveService(
            ConnectedService(
                service: service, pluginID: connector.plugin.descriptor.id, settings: plain,
                connectedAt: Date()))
        return (connector, description, connection)
    }

    /// Every reading-list service the loaded plugins connect to, with its settings and what is stored.
    public func services() throws -> [ReadingListServiceSettings] {
        let names = registry().plugins.filter { $0.capabilities.contains(SHELF_EXT_READINGLIST) }
            .flatMap(\.descriptor.services)
        var seen = Set<String>()
        return try names.filter { seen.insert($0).inserted }.map { try settings(service: $0) }
    }

    /// Forgets the service: its settings, what was pulled, and its secrets (tokens, keys, a sign-in's verifier), for a
    /// patron who disconnects expects nothing of theirs kept for it. The plugin's own keys (credentials/1, shared by
    /// its services) go too when no other service of the plugin stays connected. The secrets go first, so a store
    /// that cannot be changed leaves the service connected, to disconnect again.
    public func disconnect(service: String) throws {
        let connected = try database.services()
        let pluginID =
            connected.first { $0.service == service }?.pluginID ?? (try? connector(service).plugin.descriptor.id)
        if let pluginID {
            var prefixes = [ConnectorServices.storeKey(pluginID: pluginID, service: service, key: "")]
            if !connected.contains(where: { $0.service != service && $0.pluginID == pluginID }) {
                prefixes.append(ConnectorServices.storeKey(pluginID: pluginID, key: ""))
            }
            try store.remove { key in prefixes.contains { key.hasPrefix($0) } }
        }
        try database.deleteService(service)
    }

    // MARK: Pull

    /// Pulls every connected service (or one). A service that fails keeps what the last pull saw.
    public func pull(service only: String? = nil) throws -> [ReadingListPullOutcome] {
        let services = try database.services().filter { only == nil || $0.service == only }
        if let only, services.isEmpty {
            throw ShelfError(
                .noInput, "\(only) is not connected",
                next: NextStep(terminal: "`shelf lists connect \(only) ...` connects it first.", browser: nil))
        }
        if services.isEmpty {
            throw ShelfError(
                .noInput, "no reading list is connected",
                next: NextStep(
                    terminal:
                        "`shelf lists connect goodreads --set file=EXPORT.csv` or `shelf lists connect google-books ...`.",
                    browser: nil))
        }
        var outcomes: [ReadingListPullOutcome] = []
        for s in services {
            do {
                let result: PullResult
                do { result = try connection(s).pull() } catch { throw Self.translate(error, service: s.service) }
                // Titles and authors shown on one line whatever the service sent; a row without a title is counted.
                let entries = result.entries.map { entry -> ReadingListEntry in
                    var e = entry
                    e.title = DisplayText.oneLine(e.title)
                    e.authors = e.authors.map(DisplayText.oneLine).filter { !$0.isEmpty }
                    return e
                }.filter { !$0.title.isEmpty }
                let skipped = result.entries.count - entries.count
                try database.replaceEntries(service: s.service, entries)
                try database.setPullResult(service: s.service, error: nil)
                let added = try database.addWishes(
                    entries.filter { $0.shelf == "to-read" }.map {
                        LibraryDatabase.NewWish(source: s.service, title: $0.title, authors: $0.authors, isbn: $0.isbn)
                    })
                outcomes.append(
                    ReadingListPullOutcome(
                        service: s.service, entries: entries.count, shelves: result.shelves, error: nil,
                        newWishes: added,
                        skippedWithoutTitle: skipped))
            } catch {
                let message = ShelfError.words(error)
                // The error itself is thrown or returned below; the stored copy only feeds `shelf lists`.
                try? database.setPullResult(service: s.service, error: message)
                if only != nil || services.count == 1 { throw error }
                outcomes.append(
                    ReadingListPullOutcome(service: s.service, entries: 0, shelves: [], error: message, newWishes: 0))
            }
        }
        return outcomes
    }

    // MARK: Finished books and push

    /// The reading-list entry for a book file shelf opens (one that is not on the shelf).
    public func entry(forFile path: String) throws -> ReadingListEntry {
        let publication = try router().open(path: path, preferring: nil)
        let m = publication.manifest
        var ids: [String: String] = [:]
        if case .string(let identifier)? = m.metadata["identifier"],
            let isbn = ISBN.normalise(identifier.replacingOccurrences(of: "urn:isbn:", with: "")),
            identifier.lowercased().contains("isbn") || identifier.filter(\.isNumber).count >= 10
        {
            ids["isbn13"] = isbn
        }
        return ReadingListEntry(
            identifiers: ids, title: m.title ?? (path as NSString).lastPathComponent, authors: m.authors,
            shelf: "read", dateRead: ISO8601DateFormatter.day.string(from: Date()))
    }

    /// The reading-list entry for a book in the library (found with `BookReference`, as every command finds one).
    public func entry(for record: BookRecord) -> ReadingListEntry {
        var ids: [String: String] = [:]
        if let isbn = ISBN.normalise(record.id.replacingOccurrences(of: "urn:isbn:", with: "")),
            record.id.lowercased().contains("isbn")
        {
            ids["isbn13"] = isbn
        }
        return ReadingListEntry(
            identifiers: ids, title: record.title, authors: record.authors, shelf: "read",
            dateRead: ISO8601DateFormatter.day.string(from: Date()))
    }

    /// Marks a book read and queues the push to every connected service that records reads: a book in the library
    /// (`record`), or a file that is not on the shelf (`file`).
    public func finished(_ record: BookRecord, isbn: String? = nil) throws -> ReadingListFinishedOutcome {
        try finished(entry(for: record), bookID: record.id, isbn: isbn)
    }

    public func finished(file path: String, isbn: String? = nil) throws -> ReadingListFinishedOutcome {
        try finished(entry(forFile: path), bookID: nil, isbn: isbn)
    }

    private func finished(_ entry: ReadingListEntry, bookID: String?, isbn: String?) throws
        -> ReadingListFinishedOutcome
    {
        var entry = entry
        if let isbn {
            guard let normalised = ISBN.normalise(isbn) else {
                throw ShelfError(.usage, "\(isbn) is not an ISBN-10 or ISBN-13")
            }
            entry.identifiers["isbn13"] = normalised
        }
        var queued: [String] = [], already: [String] = []
        for s in try database.services() {
            // A connector that cannot be loaded now takes nothing: the outcome lists only the services queued for.
            guard (try? connector(s.service).describe().pushRead) == true else { continue }
            if try database.queuePush(service: s.service, entry: entry, bookID: bookID) {
                queued.append(s.service)
            } else {
                already.append(s.service)
            }
        }
        return ReadingListFinishedOutcome(entry: entry, queued: queued, alreadyQueued: already)
    }

    /// Sends every pending push. Added, unchanged and exported pushes are done and never sent again; failed ones stay.
    public func push(service only: String? = nil) throws -> [ReadingListPushReport] {
        var reports: [ReadingListPushReport] = []
        for s in try database.services() where only == nil || s.service == only {
            let pending = try database.pushes(service: s.service, pendingOnly: true)
            guard !pending.isEmpty else { continue }
            let result: PushResult
            do { result = try connection(s).push(pending.map(\.entry)) } catch {
                throw Self.translate(error, service: s.service)
            }
            // Only for the words of the report (the service's name, its upload page): the push is done and recorded.
            let description = try? connector(s.service).describe()
            for (i, p) in pending.enumerated() {
                let outcome = result.results.first { $0.index == i }
                let status = outcome?.status ?? "failed"
                let done = ["added", "unchanged", "exported"].contains(status)
                let message = outcome?.message ?? (outcome == nil ? "the connector gave no result for this entry" : nil)
                try database.recordPush(service: s.service, key: p.key, outcome: status, message: message, done: done)
                reports.append(
                    ReadingListPushReport(
                        service: s.service, title: p.entry.title, shelf: p.entry.shelf, outcome: status,
                        message: message, file: result.file, uploadURL: description?.uploadURL,
                        serviceName: description?.name ?? s.service))
            }
        }
        return reports
    }

    // MARK: Wish list

    public func wish(_ text: String, author: String?) throws -> Wish {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ShelfError(.usage, "a wish needs an ISBN or a title") }
        if let isbn = ISBN.normalise(trimmed),
            trimmed.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "X" || $0 == "x" || $0 == " " })
        {
            // Name it after the catalog entry when one is known.
            let title = try WishMatcher(database: database).entry(isbn: isbn)?.entry.title ?? "ISBN \(isbn)"
            return try database.addWish(source: "manual", title: title, authors: [], isbn: isbn)
        }
        return try database.addWish(source: "manual", title: trimmed, authors: author.map { [$0] } ?? [], isbn: nil)
    }

    /// Matches every wish to the catalogs and records availability; returns the wishes that just became
    /// available (each once: `notified_at` is set here), each stored as a `wish-available` notification.
    @discardableResult
    public func checkWishes(at date: Date = Date()) throws -> [WishNotice] {
        try WishList(database: database).check(at: date)
    }
}

extension ISO8601DateFormatter {
    static var day: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate]
        return f
    }
}
