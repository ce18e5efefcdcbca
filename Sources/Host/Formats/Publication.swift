import Foundation
import PluginAPI
import Readium

/// An open publication: the plugin's handle and the manifest it wrote, with the calls of the
/// publication capabilities. The handle is closed when the publication goes away.
public final class Publication {
    public let plugin: LoadedPlugin
    public let input: PublicationInput
    public let manifest: Manifest
    /// The manifest exactly as the plugin wrote it, for `shelf manifest`.
    public let manifestJSON: Data
    private let handle: OpaquePointer
    private let format: UnsafePointer<shelf_format_v1>
    /// Where the positions are remembered once computed (`PublicationMemo`), and what is remembered.
    private let memoFolder: URL?
    private var knownPositions: [Locator]?

    init(plugin: LoadedPlugin, input: PublicationInput, memoFolder: URL? = nil, positions: [Locator]? = nil) throws {
        guard let format = plugin.format, let open = format.pointee.open else {
            throw ShelfError(.unavailable, "plugin \(plugin.descriptor.id) cannot open files", subject: input.path)
        }
        self.plugin = plugin
        self.input = input
        self.format = format
        self.memoFolder = memoFolder
        self.knownPositions = positions
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let status = plugin.call { input.withCInput { open($0, nil, &handle, &error) } }
        do {
            try PluginCall.check(status, &error, plugin)
        } catch let failure as PluginCallError {
            throw failure.shelfError(subject: input.path)
        }
        guard let handle else {
            throw ShelfError(.software, "plugin \(plugin.descriptor.id) reported success but returned no publication", subject: input.path)
        }
        self.handle = handle
        do {
            let data = try PluginCall.collect(plugin) { out, err in format.pointee.manifest?(handle, out, err) ?? SHELF_E_UNSUPPORTED }
            manifestJSON = data
            manifest = try Manifest.parse(data)
        } catch let failure as PluginCallError {
            plugin.call { format.pointee.close?(handle) }
            throw failure.shelfError(subject: input.path)
        } catch {
            plugin.call { format.pointee.close?(handle) }
            throw ShelfError(.software, "plugin \(plugin.descriptor.id) wrote a manifest that is not a Readium Web Publication Manifest (\(error))", subject: input.path)
        }
    }

    deinit {
        let (format, handle) = (self.format, self.handle)
        plugin.call { format.pointee.close?(handle) }
    }

    /// The reading order's media types in words ("eBook", "Audiobook"), as a patron says them.
    public var formatInWords: String {
        let types = manifest.readingOrder.compactMap(\.type)
        if !types.isEmpty, types.allSatisfy({ $0.hasPrefix("audio/") }) { return "Audiobook" }
        return "eBook"
    }

    public func resource(_ href: String) throws -> Data {
        try wrap {
            try PluginCall.collect(plugin, limit: OutputCollector.resourceLimit) { out, err in
                href.withCString { format.pointee.resource?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
    }

    public struct Rendered {
        public let content: Data
        public let locator: Locator?
    }

    public func render(at locator: Locator?, settings: String?) throws -> Rendered {
        guard let table = plugin.extensionTable(SHELF_EXT_RENDER, minimumSize: MemoryLayout<shelf_render_v1>.size)?
            .assumingMemoryBound(to: shelf_render_v1.self), let render = table.pointee.render else {
            throw unsupported("render")
        }
        let whereOutput = OutputCollector(limit: OutputCollector.jsonLimit)
        let content = try wrap {
            try PluginCall.collect(plugin, limit: OutputCollector.resourceLimit) { out, err in
                whereOutput.withWriter { whereWriter in
                    withOptionalCString(locator?.jsonString()) { cLocator in
                        withOptionalCString(settings) { cSettings in
                            render(handle, cLocator, cSettings, out, whereWriter, err)
                        }
                    }
                }
            }
        }
        let rendered = whereOutput.data.isEmpty ? locator : try? ReadiumJSON.decode(Locator.self, from: whereOutput.data)
        return Rendered(content: content, locator: rendered)
    }

    public func positions() throws -> [Locator] {
        if let knownPositions { return knownPositions }
        let table = try positionsTable()
        let data = try wrap { try PluginCall.collect(plugin) { out, err in table.pointee.positions?(handle, out, err) ?? SHELF_E_UNSUPPORTED } }
        let positions = try decode([Locator].self, data, what: "positions")
        knownPositions = positions
        if let memoFolder { PublicationMemo.save(positions, bookPath: input.path, plugin: plugin, folder: memoFolder) }
        return positions
    }

    public func locate(_ locator: Locator) throws -> Locator {
        let table = try positionsTable()
        let data = try wrap {
            try PluginCall.collect(plugin) { out, err in
                locator.jsonString().withCString { table.pointee.locate?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
        return try decode(Locator.self, data, what: "locator")
    }

    public func search(_ query: String, limit: Int = 100) throws -> [Locator] {
        guard let table = plugin.extensionTable(SHELF_EXT_SEARCH, minimumSize: MemoryLayout<shelf_search_v1>.size)?
            .assumingMemoryBound(to: shelf_search_v1.self) else { throw unsupported("search") }
        struct Query: Encodable { let query: String; let limit: Int }
        let json = ReadiumJSON.encode(Query(query: query, limit: limit))
        let data = try wrap {
            try PluginCall.collect(plugin) { out, err in
                json.withCString { table.pointee.search?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
        return try decode([Locator].self, data, what: "search results")
    }

    private func positionsTable() throws -> UnsafePointer<shelf_positions_v1> {
        guard let table = plugin.extensionTable(SHELF_EXT_POSITIONS, minimumSize: MemoryLayout<shelf_positions_v1>.size) else {
            throw unsupported("list positions")
        }
        return table.assumingMemoryBound(to: shelf_positions_v1.self)
    }

    private func unsupported(_ what: String) -> ShelfError {
        ShelfError(.unavailable, "the plugin \(plugin.descriptor.id) cannot \(what) for this format", subject: input.path)
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as PluginCallError { throw failure.shelfError(subject: input.path) }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do { return try ReadiumJSON.decode(type, from: data) } catch {
            throw ShelfError(.software, "plugin \(plugin.descriptor.id) wrote \(what) that are not valid JSON Locators", subject: input.path)
        }
    }
}

func withOptionalCString<T>(_ s: String?, _ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
    guard let s else { return try body(nil) }
    return try s.withCString { try body($0) }
}
