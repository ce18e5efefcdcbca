import Foundation
import PluginAPI
import Readium

/// A publication opened for a check by direct ABI calls, so a check sees exactly what the plugin wrote
/// (the host's own path reads leniently where a reader must: a `where` it cannot parse is simply absent).
/// Every call is named with its arguments and the sample, and its JSON is read strictly.
final class RawPublication {
    typealias CheckFailure = ConformanceChecks.CheckFailure
    let s: ConformanceChecks.Subject
    let sample: String
    private let handle: OpaquePointer

    init(_ s: ConformanceChecks.Subject, path: String) throws {
        self.s = s
        sample = ConformanceChecks.Subject.name(path)
        let input = try PublicationInput(path: path)
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let status = try s.call("open(\(sample))") {
            input.withCInput { s.format.pointee.open!($0, nil, &handle, &error) }
        }
        guard status == SHELF_OK, let handle else {
            throw ConformanceChecks.SampleDidNotOpen(
                "\(sample) did not open (see the open check): \(PluginCall.message(of: &error))")
        }
        self.handle = handle
    }

    deinit {
        let handle = handle, format = s.format
        // A deinit cannot throw, and close returns nothing: `call` is here to name the close in a crash report.
        _ = try? s.call("close(\(sample))") { format.pointee.close?(handle) }
    }

    /// "render(chapter-2.md, {"as":"html"}) of book.txt"
    func name(_ call: String, _ arguments: String...) -> String {
        "\(call)(\(arguments.joined(separator: ", "))) of \(sample)"
    }

    /// Runs a call writing to one writer; a failure names the call.
    func collect(
        _ call: String, limit: Int = OutputCollector.jsonLimit,
        _ body: (OpaquePointer, UnsafePointer<shelf_writer>, UnsafeMutablePointer<shelf_error>) -> shelf_status
    ) throws -> Data {
        try s.call(call) {
            do {
                return try PluginCall.collect(s.plugin, limit: limit) { out, err in body(handle, out, err) }
            } catch let failure as PluginCallError {
                throw PluginCallFailure(call: call, failure: failure)
            }
        }
    }

    /// The status and message of a call expected to fail, and whether it wrote anything.
    func attempt(
        _ call: String,
        _ body: (OpaquePointer, UnsafePointer<shelf_writer>, UnsafeMutablePointer<shelf_error>) -> shelf_status
    ) throws -> (shelf_status, String) {
        try s.call(call) {
            let output = OutputCollector(limit: OutputCollector.jsonLimit)
            var error = PluginCall.newError()
            let status = s.plugin.call { output.withWriter { body(handle, $0, &error) } }
            return (status, PluginCall.message(of: &error))
        }
    }

    func manifest() throws -> (Data, Manifest) {
        let call = name("manifest")
        let data = try collect(call) { h, out, err in s.format.pointee.manifest!(h, out, err) }
        _ = try Self.strict(data, call, "a manifest")
        do {
            return (data, try Manifest.parse(data))
        } catch {
            throw CheckFailure(
                "\(call) wrote JSON that is not a Readium Web Publication Manifest (\(error)): metadata.title and readingOrder are required (format.h)"
            )
        }
    }

    func render(_ locator: String?, _ settings: String?) throws -> (content: Data, where: Locator) {
        guard
            let table = s.plugin.extensionTable(SHELF_EXT_RENDER, minimumSize: MemoryLayout<shelf_render_v1>.size)?
                .assumingMemoryBound(to: shelf_render_v1.self)
        else { throw CheckFailure("no \(SHELF_EXT_RENDER)") }
        let call = name("render", locator ?? "NULL", settings ?? "NULL")
        let whereOutput = OutputCollector(limit: OutputCollector.jsonLimit)
        let content = try collect(call, limit: OutputCollector.resourceLimit) { h, out, err in
            whereOutput.withWriter { whereWriter in
                withOptionalCString(locator) { l in
                    withOptionalCString(settings) { st in table.pointee.render!(h, l, st, out, whereWriter, err) }
                }
            }
        }
        if whereOutput.data.isEmpty {
            throw CheckFailure(
                "\(call) wrote nothing to `where`: it gets the Locator of the position rendered (format.h)")
        }
        return (content, try Self.locator(whereOutput.data, "`where` of " + call))
    }

    func positions() throws -> [Locator] {
        let call = name("positions")
        let data = try collect(call) { h, out, err in positionsTable().pointee.positions!(h, out, err) }
        _ = try Self.strict(data, call, "an array of Locators")
        do { return try ReadiumJSON.decode([Locator].self, from: data) } catch {
            throw CheckFailure(
                "\(call) wrote JSON that is not an array of Locators (\(error)): each needs href, type and locations")
        }
    }

    func locate(_ locator: String) throws -> Locator {
        let call = name("locate", locator)
        return try Self.locator(
            try collect(call) { h, out, err in locator.withCString { positionsTable().pointee.locate!(h, $0, out, err) }
            }, call)
    }

    func search(_ query: String) throws -> [Locator] {
        guard
            let table = s.plugin.extensionTable(SHELF_EXT_SEARCH, minimumSize: MemoryLayout<shelf_search_v1>.size)?
                .assumingMemoryBound(to: shelf_search_v1.self)
        else { throw CheckFailure("no \(SHELF_EXT_SEARCH)") }
        let json = ReadiumJSON.encode(["query": query])
        let call = name("search", json)
        let data = try collect(call) { h, out, err in json.withCString { table.pointee.search!(h, $0, out, err) } }
        _ = try Self.strict(data, call, "an array of Locators")
        do { return try ReadiumJSON.decode([Locator].self, from: data) } catch {
            throw CheckFailure("\(call) wrote JSON that is not an array of Locators (\(error))")
        }
    }

    func positionsTable() -> UnsafePointer<shelf_positions_v1> {
        s.plugin.extensionTable(SHELF_EXT_POSITIONS, minimumSize: MemoryLayout<shelf_positions_v1>.size)!
            .assumingMemoryBound(to: shelf_positions_v1.self)
    }

    /// Strict RFC 8259: what a plugin writes must be JSON for every reader, not only a lenient one.
    static func strict(_ data: Data, _ call: String, _ what: String) throws -> JSONValue {
        do {
            return try JSONReader.parse(data)
        } catch let error as JSONError {
            let text = String(decoding: data.prefix(160), as: UTF8.self)
            throw CheckFailure(
                "\(call) wrote \(what) that is not valid JSON (\(error.reason)): \(text)\(data.count > 160 ? "..." : "")"
            )
        }
    }

    static func locator(_ data: Data, _ call: String) throws -> Locator {
        _ = try strict(data, call, "a Locator")
        do { return try ReadiumJSON.decode(Locator.self, from: data) } catch {
            throw CheckFailure(
                "\(call) wrote JSON that is not a Locator (\(error)): href, type and locations are required: "
                    + String(decoding: data.prefix(160), as: UTF8.self))
        }
    }
}

/// A call that failed: the call, then the plugin's status and message.
struct PluginCallFailure: Error, CustomStringConvertible {
    let call: String
    let failure: PluginCallError
    var description: String {
        failure.message.isEmpty
            ? "\(call) failed with \(PluginCallError.name(of: failure.status)) and no message: a failing call says what went wrong, and what to do, in its shelf_error (plugin.h)"
            : "\(call) failed with \(PluginCallError.name(of: failure.status)): \(failure.message)"
    }
}
