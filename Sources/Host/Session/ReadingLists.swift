internal import ShelfCore
internal import ShelfLibrary
import Foundation

/// Reading lists as a front end uses them: connect a service, pull its shelves, mark books finished and push them,
/// and the wish list's news. `LibrarySession.readingLists()` makes one; every call is the library's own
/// (`ShelfLibrary.ReadingLists`), forwarded. Safe from several threads as `LibrarySession` is.
public final class ReadingLists {
    public typealias ConnectOutcome = ReadingListConnectOutcome
    public typealias ServiceSettings = ReadingListServiceSettings
    public typealias PullOutcome = ReadingListPullOutcome
    public typealias FinishedOutcome = ReadingListFinishedOutcome
    public typealias PushReport = ReadingListPushReport
    public typealias Notice = WishNotice

    let lists: ShelfLibrary.ReadingLists
    let signIns: ReadingListSignIns
    /// Where files given through the browser app (a Goodreads export) are kept, as a file setting names them.
    let uploads: URL

    init(_ lists: ShelfLibrary.ReadingLists, signIns: ReadingListSignIns, uploads: URL) {
        self.lists = lists
        self.signIns = signIns
        self.uploads = uploads
    }

    /// Every service the installed plugins connect to, with its settings and what is stored.
    public func services() throws -> [ServiceSettings] { try lists.services() }

    /// What the browser app's Connect did: a sign-in begun (the browser goes to `url` and comes back to the app),
    /// or the service connected and read, in words.
    public enum BrowserConnect: Sendable {
        case signIn(url: String)
        case done(ReadingListConnectionChange)
    }

    /// The browser app's Connect: stores the settings and secrets as `shelf lists connect` does. A service that
    /// signs in through its own page (OAuth) and has what its sign-in needs (Google's client id, Goodreads' legacy
    /// key) starts the sign-in: the browser comes back to `returnTo` once signed in and the lists read
    /// (`signInState` says how it went). Otherwise (an export file, a public shelf) the lists are read at once.
    /// `browserOnThisMachine`: false when the app is served to other machines (`--listen`), whose browser the
    /// service's redirect to 127.0.0.1 could not bring back here: no sign-in is begun.
    /// `files`: the contents of file settings (a Goodreads export) the browser sent, by key: each is kept in shelf's
    /// data folder and the setting names it there, as `--set file=PATH` names the patron's file.
    public func connectFromBrowser(
        service: String, settings: [String: String], secrets: [String: String], files: [String: Data] = [:],
        returnTo: String, browserOnThisMachine: Bool
    ) throws -> BrowserConnect {
        let info = try lists.settings(service: service)
        var settings = settings
        for (key, contents) in files {
            guard (info.description.settings ?? []).contains(where: { $0.key == key && $0.type == "file" }) else {
                throw ShelfError(.usage, "\(service) has no file setting \"\(key)\"")
            }
            settings[key] = try keep(contents, service: service, key: key).path
        }
        if browserOnThisMachine, (info.description.authorization ?? "none") != "none" {
            do {
                return .signIn(
                    url: try signIns.start(
                        lists, service: service, settings: settings, secrets: secrets, returnTo: returnTo))
            } catch let refusal as ShelfError where refusal.kind == .usage || refusal.kind == .permission {
                // The settings have no sign-in (no client id, no legacy key): connected without one, below.
            }
        }
        let outcome = try lists.connect(
            service: service, settings: settings, secrets: secrets, authorize: false, openBrowser: { _ in })
        let name = outcome.description.name ?? service
        do {
            let pulled = try lists.pull(service: service)
            _ = try? lists.checkWishes()  // as after a sign-in (ReadingListSignIns)
            return .done(.connected(service: name, titles: pulled.first?.entries ?? 0))
        } catch {
            return .done(.notRead(service: name, reason: ShelfError.words(error)))
        }
    }

    /// Writes a file setting's contents to the uploads folder (mode 0600: a patron's reading history), replacing
    /// the one given before.
    private func keep(_ contents: Data, service: String, key: String) throws -> URL {
        let safe = { (text: String) in
            String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" })
        }
        let file = uploads.appendingPathComponent("\(safe(service))-\(safe(key))")
        do {
            try FileManager.default.createDirectory(
                at: uploads, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try contents.write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            throw ShelfError(
                .ioError, "the file for \(service) could not be kept: \(error.localizedDescription)",
                subject: file.path, hint: "Check that shelf's data folder can be written to.")
        }
        return file
    }

    public func signInState(service: String) -> ReadingListSignIns.State? { signIns.state(of: service) }

    /// What a service can do and which settings it takes (through `describe`, never `connect`), with what is stored.
    public func settings(service: String) throws -> ServiceSettings { try lists.settings(service: service) }

    /// Checks and stores a service's settings and secrets; with `authorize`, signs in through the browser
    /// (`openBrowser` gets the address).
    public func connect(
        service: String, settings: [String: String], secrets: [String: String], authorize: Bool,
        openBrowser: (String) -> Void
    ) throws -> ConnectOutcome {
        try lists.connect(
            service: service, settings: settings, secrets: secrets, authorize: authorize, openBrowser: openBrowser)
    }

    /// Forgets the service (its settings, lists and secrets: `ShelfLibrary.ReadingLists.disconnect`), a sign-in
    /// still waiting for it, and the copies of files the browser gave it (a Goodreads export: a reading history); says
    /// what it did: disconnected, or not connected (whatever was kept for it is forgotten all the same). A name no
    /// plugin connects to and nothing is connected under is refused as `connect` refuses it.
    @discardableResult
    public func disconnect(service: String) throws -> ReadingListConnectionChange {
        let record = try lists.database.services().first { $0.service == service }
        if record == nil { _ = try lists.connector(service) }
        let name = (try? lists.settings(service: service).description.name) ?? service
        let kept = record.map { Array($0.settings.values) } ?? []
        try lists.disconnect(service: service)
        signIns.forget(service)
        let folder = uploads.standardizedFileURL.path + "/"
        for path in kept where URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(folder) {
            try? FileManager.default.removeItem(atPath: path)  // already gone: nothing of the patron's is left
        }
        return record == nil ? .notConnected(service: name) : .disconnected(service: name)
    }

    /// Pulls every connected service (or one). A service that fails keeps what the last pull saw.
    public func pull(service: String?) throws -> [PullOutcome] { try lists.pull(service: service) }

    /// Marks a book on the shelf read and queues it for every connected service that records reads.
    public func finished(_ record: BookRecord, isbn: String?) throws -> FinishedOutcome {
        try lists.finished(record, isbn: isbn)
    }

    /// Marks a book file that is not on the shelf read, as above.
    public func finished(file path: String, isbn: String?) throws -> FinishedOutcome {
        try lists.finished(file: path, isbn: isbn)
    }

    /// Sends every pending push (to one service, or all).
    public func push(service: String?) throws -> [PushReport] { try lists.push(service: service) }

    /// Matches every wish to the catalogs; the wishes that just became available, each said once.
    @discardableResult
    public func checkWishes() throws -> [Notice] { try lists.checkWishes() }
}
