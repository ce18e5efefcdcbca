import ShelfValues
import ShelfCore
import Foundation
import PluginAPI
import Readium

/// An open publication: the plugin's handle and the manifest it wrote, with the calls of the
/// publication capabilities. The handle is closed when the publication goes away.
///
/// A publication made from its `PublicationMemo` has the manifest (and maybe the positions) the
/// plugin wrote for this very file before; the plugin opens the file only when a call needs it, so
/// `shelf info` or a listing of a known book loads no plugin at all.
public final class Publication {
    public let plugin: LoadedPlugin
    public let input: PublicationInput
    public let manifest: Manifest
    /// The manifest exactly as the plugin wrote it, for `shelf manifest`.
    public let manifestJSON: Data
    /// Where what the plugin answered is remembered (`PublicationMemo`), and the positions known so far.
    private let memoFolder: URL?
    private let knownPositions: [Locator]?
    private var opened: Opened?
    private let openLock = NSLock()

    private struct Opened {
        let handle: OpaquePointer
        let format: UnsafePointer<shelf_format_v1>
    }

    /// Opens `input` through `plugin` now and reads its manifest.
    init(plugin: LoadedPlugin, input: PublicationInput, memoFolder: URL? = nil) throws {
        self.plugin = plugin
        self.input = input
        self.memoFolder = memoFolder
        knownPositions = nil
        let opened = try Self.open(input, with: plugin)
        self.opened = opened
        do {
            let data = try PluginCall.collect(plugin) { out, err in
                opened.format.pointee.manifest?(opened.handle, out, err) ?? SHELF_E_UNSUPPORTED
            }
            manifestJSON = data
            let parsed = try Manifest.parse(data)
            // Nothing of a book without a reading order can be read, listed or searched (format.h requires one item).
            // Refused before `manifest` is set: once every property is, a throw would run deinit, closing twice.
            if parsed.readingOrder.isEmpty { throw EmptyReadingOrder() }
            manifest = parsed
        } catch let failure as PluginCallError {
            plugin.call { opened.format.pointee.close?(opened.handle) }
            throw failure.shelfError(subject: input.path)
        } catch {
            plugin.call { opened.format.pointee.close?(opened.handle) }
            throw ShelfError(
                .software,
                "plugin \(plugin.descriptor.id) wrote a manifest that is not a Readium Web Publication Manifest (\(error))",
                subject: input.path,
                hint: "This is a fault in the plugin \(plugin.descriptor.id); please report it to its author.")
        }
    }

    /// A publication as its memo knows it; the plugin is neither loaded nor asked until a call needs it.
    init(plugin: LoadedPlugin, input: PublicationInput, memoFolder: URL, memo: PublicationMemo) throws {
        self.plugin = plugin
        self.input = input
        self.memoFolder = memoFolder
        manifestJSON = memo.manifestJSON
        manifest = try Manifest.parse(memo.manifestJSON)
        knownPositions = memo.positions
    }

    deinit {
        guard let opened else { return }
        plugin.call { opened.format.pointee.close?(opened.handle) }
    }

    private static func open(_ input: PublicationInput, with plugin: LoadedPlugin) throws -> Opened {
        guard let format = plugin.format, let open = format.pointee.open else {
            throw ShelfError(.unavailable, "plugin \(plugin.descriptor.id) cannot open files", subject: input.path)
        }
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let status = plugin.call { input.withCInput { open($0, nil, &handle, &error) } }
        do {
            try PluginCall.check(status, &error, plugin)
        } catch let failure as PluginCallError {
            throw failure.shelfError(subject: input.path)
        }
        guard let handle else {
            throw ShelfError(
                .software, "plugin \(plugin.descriptor.id) reported success but returned no publication",
                subject: input.path)
        }
        return Opened(handle: handle, format: format)
    }

    /// The plugin's handle, opening the file now if this publication came from its memo, or again if the plugin's
    /// process that held it ended (the browser app keeps a book open while it runs: after a crash the next request
    /// reads it in a new process).
    private func openedHandle() throws -> Opened {
        openLock.lock()
        defer { openLock.unlock() }
        if let lost = opened, plugin.lost(lost.handle) {
            plugin.call { lost.format.pointee.close?(lost.handle) }
            opened = nil
        }
        if let opened { return opened }
        let fresh = try Self.open(input, with: plugin)
        opened = fresh
        return fresh
    }

    /// An audiobook when every item of the reading order is audio, else an eBook.
    public var format: PublicationFormat {
        let types = manifest.readingOrder.compactMap(\.type)
        return !types.isEmpty && types.allSatisfy({ $0.hasPrefix("audio/") }) ? .audiobook : .ebook
    }

    /// The format in words ("eBook", "Audiobook"), as a patron says them.
    public var formatInWords: String { format.words }

    public func resource(_ href: String) throws -> Data {
        let (handle, format) = try handleAndFormat()
        return try wrap {
            try PluginCall.collect(plugin, limit: OutputCollector.resourceLimit) { out, err in
                href.withCString { format.pointee.resource?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
    }

    /// What `render` gives (`ShelfValues.RenderedItem`, a value a front end shows).
    public typealias Rendered = RenderedItem

    public func render(at locator: Locator?, settings: String?) throws -> Rendered {
        guard
            let table = plugin.extensionTable(SHELF_EXT_RENDER, minimumSize: MemoryLayout<shelf_render_v1>.size)?
                .assumingMemoryBound(to: shelf_render_v1.self), let render = table.pointee.render
        else {
            throw unsupported("render")
        }
        let handle = try openedHandle().handle
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
        // A place that is no Locator is the plugin's fault, which `shelf conformance` reports (render's `where`); the
        // content is still the page asked for.
        let rendered =
            whereOutput.data.isEmpty ? locator : try? ReadiumJSON.decode(Locator.self, from: whereOutput.data)
        return Rendered(content: content, locator: rendered)
    }

    public func positions() throws -> [Locator] {
        if let knownPositions { return knownPositions }
        let table = try positionsTable()
        let handle = try openedHandle().handle
        let data = try wrap {
            try PluginCall.collect(plugin) { out, err in
                table.pointee.positions?(handle, out, err) ?? SHELF_E_UNSUPPORTED
            }
        }
        let positions = try decode([Locator].self, data, what: "positions")
        if let memoFolder {
            PublicationMemo.save(
                manifestJSON: manifestJSON, positions: positions, bookPath: input.path, plugin: plugin,
                folder: memoFolder)
        }
        return positions
    }

    public func locate(_ locator: Locator) throws -> Locator {
        let table = try positionsTable()
        let handle = try openedHandle().handle
        let data = try wrap {
            try PluginCall.collect(plugin) { out, err in
                locator.jsonString().withCString { table.pointee.locate?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
        return try decode(Locator.self, data, what: "locator")
    }

    public func search(_ query: String, limit: Int = 100) throws -> [Locator] {
        guard
            let table = plugin.extensionTable(SHELF_EXT_SEARCH, minimumSize: MemoryLayout<shelf_search_v1>.size)?
                .assumingMemoryBound(to: shelf_search_v1.self)
        else { throw unsupported("search") }
        struct Query: Encodable { let query: String; let limit: Int }
        let json = ReadiumJSON.encode(Query(query: query, limit: limit))
        let handle = try openedHandle().handle
        let data = try wrap {
            try PluginCall.collect(plugin) { out, err in
                json.withCString { table.pointee.search?(handle, $0, out, err) ?? SHELF_E_UNSUPPORTED }
            }
        }
        return try decode([Locator].self, data, what: "search results")
    }

    private func handleAndFormat() throws -> (OpaquePointer, UnsafePointer<shelf_format_v1>) {
        let opened = try openedHandle()
        return (opened.handle, opened.format)
    }

    private func positionsTable() throws -> UnsafePointer<shelf_positions_v1> {
        guard let table = plugin.extensionTable(SHELF_EXT_POSITIONS, minimumSize: MemoryLayout<shelf_positions_v1>.size)
        else {
            throw unsupported("list positions")
        }
        return table.assumingMemoryBound(to: shelf_positions_v1.self)
    }

    private func unsupported(_ what: String) -> ShelfError {
        ShelfError(
            .unavailable, "the plugin \(plugin.descriptor.id) cannot \(what) for this format", subject: input.path)
    }

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as PluginCallError { throw failure.shelfError(subject: input.path) }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do { return try ReadiumJSON.decode(type, from: data) } catch {
            throw ShelfError(
                .software, "plugin \(plugin.descriptor.id) wrote \(what) that are not valid JSON Locators",
                subject: input.path)
        }
    }
}

package func withOptionalCString<T>(_ s: String?, _ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
    guard let s else { return try body(nil) }
    return try s.withCString { try body($0) }
}

private struct EmptyReadingOrder: Error, CustomStringConvertible {
    var description: String { "its readingOrder is empty; format.h requires at least one item" }
}
