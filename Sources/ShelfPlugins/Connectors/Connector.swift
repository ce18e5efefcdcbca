import ShelfValues
import ConnectorShapes
import ShelfCore
import Foundation
import PluginAPI

/// A connector plugin seen from the host: `shelf.readinglist/1` calls with JSON in and out.
/// Unchecked Sendable: the C table is constant, and its calls go through the plugin (`LoadedPlugin`) under its call lock.
public final class Connector: @unchecked Sendable {
    public let plugin: LoadedPlugin
    public let service: String
    let table: UnsafePointer<shelf_readinglist_v1>

    public init(plugin: LoadedPlugin, service: String) throws {
        guard
            let raw = plugin.extensionTable(SHELF_EXT_READINGLIST, minimumSize: MemoryLayout<shelf_readinglist_v1>.size)
        else {
            throw ShelfError(
                .unavailable,
                "\(plugin.descriptor.id) lists the service \(service) but offers no \(SHELF_EXT_READINGLIST)")
        }
        self.plugin = plugin
        self.service = service
        self.table = raw.assumingMemoryBound(to: shelf_readinglist_v1.self)
    }

    /// The plugin that connects to `service`, among those loaded.
    public static func find(service: String, in registry: PluginRegistry) throws -> Connector {
        guard let plugin = registry.plugins.first(where: { $0.descriptor.services.contains(service) }) else {
            let known = registry.plugins.flatMap(\.descriptor.services)
            throw ShelfError(
                .unavailable, "no plugin connects to \"\(service)\"",
                hint: known.isEmpty
                    ? "No connector plugin is installed." : "Known services: \(known.joined(separator: ", ")).")
        }
        return try Connector(plugin: plugin, service: service)
    }

    public func describe() throws -> ConnectorDescription {
        let data = try service.withCString { s in
            try PluginCall.collect(plugin) { out, err in table.pointee.describe?(s, out, err) ?? SHELF_E_UNSUPPORTED }
        }
        return try decode(ConnectorDescription.self, data, what: "capabilities")
    }

    /// An open connection; closed when the value goes away. It may move to another thread, as plugin.h allows a
    /// handle to, while one thread at a time calls it; its callers keep that rule (the compiler cannot see it).
    public final class Connection: @unchecked Sendable {
        let connector: Connector
        let handle: OpaquePointer

        init(connector: Connector, handle: OpaquePointer) {
            self.connector = connector
            self.handle = handle
        }

        deinit {
            let close = connector.table.pointee.disconnect
            connector.plugin.call { close?(handle) }
        }

        public func pull(shelf: String? = nil) throws -> PullResult {
            let options = shelf.map { ReadingListJSON.string(["shelf": $0]) } ?? "{}"
            let data = try options.withCString { o in
                try PluginCall.collect(connector.plugin) { out, err in
                    connector.table.pointee.pull?(handle, o, out, err) ?? SHELF_E_UNSUPPORTED
                }
            }
            return try connector.decode(PullResult.self, data, what: "pull result")
        }

        public func push(_ entries: [ReadingListEntry]) throws -> PushResult {
            struct Input: Encodable { let entries: [ReadingListEntry] }
            let text = ReadingListJSON.string(Input(entries: entries))
            let data = try text.withCString { e in
                try PluginCall.collect(connector.plugin) { out, err in
                    connector.table.pointee.push?(handle, e, out, err) ?? SHELF_E_UNSUPPORTED
                }
            }
            return try connector.decode(PushResult.self, data, what: "push result")
        }

        public func authorizeBegin(redirectURI: String) throws -> (url: String, state: String?) {
            let text = ReadingListJSON.string(["redirectURI": redirectURI])
            let data = try text.withCString { o in
                try PluginCall.collect(connector.plugin) { out, err in
                    connector.table.pointee.authorize_begin?(handle, o, out, err) ?? SHELF_E_UNSUPPORTED
                }
            }
            struct Start: Decodable { let url: String; let state: String? }
            let start = try connector.decode(Start.self, data, what: "authorization start")
            return (start.url, start.state)
        }

        public func authorizeComplete(query: [String: String]) throws {
            let text = ReadingListJSON.string(["query": query])
            var error = PluginCall.newError()
            let status = text.withCString { c in
                connector.plugin.call {
                    connector.table.pointee.authorize_complete?(handle, c, &error) ?? SHELF_E_UNSUPPORTED
                }
            }
            try PluginCall.check(status, &error, connector.plugin)
        }
    }

    public func connect(settings: [String: String]) throws -> Connection {
        let text = ReadingListJSON.string(settings)
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let status = service.withCString { s in
            text.withCString { c in plugin.call { table.pointee.connect?(s, c, &handle, &error) ?? SHELF_E_UNSUPPORTED }
            }
        }
        try PluginCall.check(status, &error, plugin)
        guard let handle else {
            throw ShelfError(.software, "\(plugin.descriptor.id) connected but returned no connection")
        }
        return Connection(connector: self, handle: handle)
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw ShelfError(
                .badData, "\(plugin.descriptor.id) wrote a \(what) that is not the documented JSON", subject: service)
        }
    }
}

package enum ReadingListJSON {
    package static func string<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Settings, entries and a few strings: JSONEncoder fails only on a non-finite number, and then the connector
        // gets "{}" and says what it lacks.
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
