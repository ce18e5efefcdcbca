import Foundation
import PluginAPI
@_exported import ConnectorShapes

// Swift side of readinglist.h: the JSON shapes, the protocols a Swift connector implements, and
// the "shelf.readinglist/1" vtable that adapts them.

public struct ConnectorSetting: Codable, Equatable, Sendable {
    /// What a setting's value is, so the host can check it before connecting (readinglist.h).
    public enum Kind: String, Codable, Sendable { case text, file, url }
    public var key: String
    public var label: String
    public var required: Bool
    public var secret: Bool
    public var type: Kind?
    public init(key: String, label: String, required: Bool = false, secret: Bool = false, type: Kind? = nil) {
        self.key = key
        self.label = label
        self.required = required
        self.secret = secret
        self.type = type
    }
}

/// What `describe` writes (readinglist.h, "Capabilities").
public struct ConnectorDescription: Codable, Equatable, Sendable {
    public enum PushWrites: String, Codable, Sendable { case service, file }
    public enum Authorization: String, Codable, Sendable { case none, oauth1, oauth2 }
    public var service: String
    public var name: String
    public var pull: Bool
    public var pushRead: Bool
    public var pushToRead: Bool
    public var pushWrites: PushWrites
    public var authorization: Authorization
    public var settings: [ConnectorSetting]
    /// With `pushWrites` "file": the page where the patron uploads the file.
    public var uploadURL: String?

    public init(
        service: String, name: String, pull: Bool, pushRead: Bool, pushToRead: Bool,
        pushWrites: PushWrites = .service, authorization: Authorization = .none, settings: [ConnectorSetting],
        uploadURL: String? = nil
    ) {
        self.uploadURL = uploadURL
        self.service = service
        self.name = name
        self.pull = pull
        self.pushRead = pushRead
        self.pushToRead = pushToRead
        self.pushWrites = pushWrites
        self.authorization = authorization
        self.settings = settings
    }
}

public struct ReadingListShelf: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var count: Int?
    public init(id: String, name: String, count: Int? = nil) {
        self.id = id
        self.name = name
        self.count = count
    }
}

public struct PullResult: Codable, Sendable {
    public var shelves: [ReadingListShelf]
    public var entries: [ReadingListEntry]
    public init(shelves: [ReadingListShelf], entries: [ReadingListEntry]) {
        self.shelves = shelves
        self.entries = entries
    }
}

public struct PushOutcome: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable { case added, unchanged, exported, failed }
    public var index: Int
    public var status: Status
    public var message: String?
    public init(index: Int, status: Status, message: String? = nil) {
        self.index = index
        self.status = status
        self.message = message
    }
}

public struct PushResult: Codable, Sendable {
    public var results: [PushOutcome]
    public var file: String?
    public init(results: [PushOutcome], file: String? = nil) {
        self.results = results
        self.file = file
    }
}

public struct AuthorizationStart: Codable, Sendable {
    public var url: String
    public var state: String?
    public init(url: String, state: String?) {
        self.url = url
        self.state = state
    }
}

/// A connector plugin (`shelf.readinglist/1`): declare `.readingList` in `capabilities`.
public protocol ReadingListPlugin: ShelfPlugin {
    func describe(service: String) throws -> ConnectorDescription
    /// Checks settings; no network I/O.
    func connect(service: String, settings: [String: String]) throws -> ReadingListConnection
}

public protocol ReadingListConnection: AnyObject {
    func pull(shelf: String?) throws -> PullResult
    func push(_ entries: [ReadingListEntry]) throws -> PushResult
    func authorizeBegin(redirectURI: String) throws -> AuthorizationStart
    func authorizeComplete(query: [String: String]) throws
}

extension ReadingListConnection {
    public func authorizeBegin(redirectURI: String) throws -> AuthorizationStart {
        throw PluginFailure.unsupported("this service needs no sign-in in the browser")
    }
    public func authorizeComplete(query: [String: String]) throws {
        throw PluginFailure.unsupported("this service needs no sign-in in the browser")
    }
}

enum ReadingListExtension {
    final class Box {
        let connection: ReadingListConnection
        init(_ connection: ReadingListConnection) { self.connection = connection }
    }

    static func connection(_ raw: OpaquePointer?) throws -> ReadingListConnection {
        guard let raw else { throw PluginFailure.invalidArgument("NULL connection") }
        return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(raw)).takeUnretainedValue().connection
    }

    static func plugin() throws -> ReadingListPlugin {
        guard let plugin = PluginExport.instance as? ReadingListPlugin else {
            throw PluginFailure(SHELF_E_INTERNAL, "called before init")
        }
        return plugin
    }

    static func string(_ raw: UnsafePointer<CChar>?, _ what: String) throws -> String {
        guard let raw else { throw PluginFailure.invalidArgument("NULL \(what)") }
        return String(cString: raw)
    }

    /// Parses a JSON object argument; NULL is {}.
    static func object(_ raw: UnsafePointer<CChar>?, _ what: String) throws -> [String: Any] {
        guard let raw else { return [:] }
        // The `try?` becomes the refusal below, which says what the argument must be.
        guard let value = try? JSONSerialization.jsonObject(with: Data(String(cString: raw).utf8)),
            let object = value as? [String: Any]
        else {
            throw PluginFailure.invalidArgument("the \(what) is not a JSON object")
        }
        return object
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        // Only a non-finite number fails, and a connector's entries and answers hold none JSON could not say.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    struct EntriesInput: Decodable { var entries: [ReadingListEntry] }

    // Written once, then only read (see Extensions.allocate).
    nonisolated(unsafe) static let table: UnsafeMutablePointer<shelf_readinglist_v1> = Extensions.allocate(
        shelf_readinglist_v1(
            struct_size: UInt32(MemoryLayout<shelf_readinglist_v1>.size),
            describe: { service, out, err in
                CBridge.guarded(err) {
                    let name = try string(service, "service")
                    let plugin = try plugin()
                    guard type(of: plugin).info.services.contains(name) else {
                        throw PluginFailure.notFound("this connector does not speak the service \"\(name)\"")
                    }
                    try CBridge.emit(encode(try plugin.describe(service: name)), to: out)
                }
            },
            connect: { service, settings, out, err in
                CBridge.guarded(err) {
                    guard let out else { throw PluginFailure.invalidArgument("NULL out connection") }
                    out.pointee = nil
                    let name = try string(service, "service")
                    let plugin = try plugin()
                    guard type(of: plugin).info.services.contains(name) else {
                        throw PluginFailure.notFound("this connector does not speak the service \"\(name)\"")
                    }
                    var values: [String: String] = [:]
                    for (key, value) in try object(settings, "settings") {
                        guard let text = value as? String else {
                            throw PluginFailure.invalidArgument("the setting \"\(key)\" must be a string")
                        }
                        values[key] = text
                    }
                    let connection = try plugin.connect(service: name, settings: values)
                    out.pointee = OpaquePointer(Unmanaged.passRetained(Box(connection)).toOpaque())
                }
            },
            pull: { handle, options, out, err in
                CBridge.guarded(err) {
                    let c = try connection(handle)
                    let shelf = try object(options, "pull options")["shelf"] as? String
                    try CBridge.emit(encode(try c.pull(shelf: shelf)), to: out)
                }
            },
            push: { handle, entries, out, err in
                CBridge.guarded(err) {
                    let c = try connection(handle)
                    let text = try string(entries, "entries")
                    // The `try?` becomes the refusal below, which says the shape expected.
                    guard let input = try? JSONDecoder().decode(EntriesInput.self, from: Data(text.utf8)) else {
                        throw PluginFailure.invalidArgument("the entries are not {\"entries\": [...]}")
                    }
                    try CBridge.emit(encode(try c.push(input.entries)), to: out)
                }
            },
            authorize_begin: { handle, options, out, err in
                CBridge.guarded(err) {
                    let c = try connection(handle)
                    guard let redirect = try object(options, "authorization options")["redirectURI"] as? String else {
                        throw PluginFailure.invalidArgument("authorize_begin needs {\"redirectURI\": ...}")
                    }
                    try CBridge.emit(encode(try c.authorizeBegin(redirectURI: redirect)), to: out)
                }
            },
            authorize_complete: { handle, callback, err in
                CBridge.guarded(err) {
                    let c = try connection(handle)
                    let query = try object(callback, "callback")["query"] as? [String: Any] ?? [:]
                    try c.authorizeComplete(query: query.compactMapValues { $0 as? String })
                }
            },
            disconnect: { handle in
                guard let handle else { return }
                Unmanaged<Box>.fromOpaque(UnsafeRawPointer(handle)).release()
            }
        ))
}
