import Foundation
import PluginAPI

/// Helpers for making one ABI call: a zeroed error to pass, reading it back, and collecting output.
package enum PluginCall {
    package static func newError() -> shelf_error {
        var error = shelf_error()
        error.struct_size = UInt32(MemoryLayout<shelf_error>.size)
        return error
    }

    static func message(of error: inout shelf_error) -> String {
        text(&error.message)
    }

    /// Reads a fixed C array as UTF-8, bounded even if the plugin forgot the terminator.
    static func text<T>(_ array: inout T) -> String {
        withUnsafeBytes(of: &array) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Runs a call that writes to one writer; throws a PluginCallError on a non-OK status.
    package static func collect(
        _ plugin: LoadedPlugin, limit: Int = OutputCollector.jsonLimit,
        _ body: (UnsafePointer<shelf_writer>, UnsafeMutablePointer<shelf_error>) -> shelf_status
    ) throws -> Data {
        let output = OutputCollector(limit: limit)
        var error = newError()
        let status = plugin.call { output.withWriter { body($0, &error) } }
        if let cut = output.overflow(plugin) { throw cut }
        try check(status, &error, plugin)
        return output.data
    }

    package static func check(_ status: shelf_status, _ error: inout shelf_error, _ plugin: LoadedPlugin) throws {
        guard status != SHELF_OK else { return }
        var failure = PluginCallError(
            status: status, message: message(of: &error), location: text(&error.location),
            pluginID: plugin.descriptor.id)
        failure.restarts = plugin.isOutOfProcess && status == SHELF_E_INTERNAL && RemoteCallFailure.takeNote()
        throw failure
    }
}
