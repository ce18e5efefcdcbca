import Foundation
import Host

/// Reading lists in the API: the services the plugins connect to, Connect (signing in through the service's page
/// where it has one: the loopback redirect to 127.0.0.1 on this machine, as `shelf lists connect --authorize`) and
/// Disconnect, and the lists' entries with how each title stands at the patron's libraries. The host makes every
/// document and says every outcome (`ReadingLists`, `ReadingListConnectionChange`, `TitleAvailability`).
enum ReadingListsAPI {
    static func install(in app: WebApp) {
        let router = app.router

        router.add("GET", "/api/lists") { request in
            let library = try app.library()
            let entries = try library.readingListEntries(
                service: request.query["service"], shelf: request.query["shelf"])
            let standing = try library.titleAvailability(
                entries.map { .init(title: $0.entry.title, authors: $0.entry.authors, isbn: $0.entry.isbn) })
            var document = ReadingListsJSON(entries)
            document.entries = zip(document.entries, standing).map { entry, standing in
                var entry = entry
                entry.atLibrary = TitleAvailabilityJSON(standing, openable: library.openable)
                entry.shelfName = ReadingListShelfNames.name(entry.shelf)
                return entry
            }
            return .json(document: document)
        }

        router.add("GET", "/api/lists/services") { _ in
            let library = try app.library()
            let lists = library.readingLists()
            let connected = try library.connectedServices()
            let services = try lists.services().map { info in
                ReadingListServiceJSON(
                    info, connected: connected.first { $0.service == info.service },
                    signIn: lists.signInState(service: info.service))
            }
            return .json(document: ServicesDocument(services: services))
        }

        // Connect: the settings and secrets of the service's form. Where the service signs in through its own page,
        // the answer is that page's address, and the browser comes back to the Reading lists page once it is done.
        router.add("POST", "/api/lists/services/{service}/connect") { request in
            let service = request.parameters["service"] ?? ""
            let body = try request.json()
            let settings = strings(body["settings"]).filter { !$0.value.isEmpty }
            let secrets = strings(body["secrets"]).filter { !$0.value.isEmpty }
            // A file setting's contents (a Goodreads export chosen in the form), as text.
            let files = strings(body["files"]).mapValues { Data($0.utf8) }
            let connect = try app.library().readingLists().connectFromBrowser(
                service: service, settings: settings, secrets: secrets, files: files,
                returnTo: app.url + "#/lists?signin="
                    + (service.addingPercentEncoding(
                        withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? ""),
                browserOnThisMachine: app.booksHaveOrigins)
            switch connect {
            case .signIn(let url): return .json(document: SignInStart(url: url), status: 202)
            case .done(let change): return .json(document: Outcome(change))
            }
        }

        router.add("DELETE", "/api/lists/services/{service}") { request in
            let change = try app.library().readingLists().disconnect(service: request.parameters["service"] ?? "")
            return .json(document: Outcome(change))
        }
    }

    /// A JSON object of strings (settings, secrets); other values are not settings.
    private static func strings(_ value: JSONValue?) -> [String: String] {
        value?.object?.compactMapValues(\.string) ?? [:]
    }

    struct ServicesDocument: Encodable {
        let services: [ReadingListServiceJSON]
    }

    struct SignInStart: Encodable {
        let url: String
    }

    /// What Connect or Disconnect did, in the host's words; `error` when it failed.
    struct Outcome: Encodable {
        let message: String
        let error: Bool

        init(_ change: ReadingListConnectionChange) {
            message = change.words(for: .browser).line
            error = change.failed
        }
    }
}
