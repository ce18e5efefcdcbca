import Foundation
import PluginAPI

/// The host side of a `shelf_writer`: collects what a plugin writes, up to a limit, so a
/// runaway plugin cannot exhaust memory.
final class OutputCollector {
    private(set) var data = Data()
    let limit: Int
    /// A write was refused over the limit: what was collected is cut short, whatever the plugin then returned.
    private(set) var overflowed = false

    init(limit: Int) { self.limit = limit }

    /// Runs `body` with a writer pointing at this collector; the writer is valid only inside.
    func withWriter<T>(_ body: (UnsafePointer<shelf_writer>) throws -> T) rethrows -> T {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var writer = shelf_writer(
            context: context,
            write: { context, bytes, size in
                guard let context else { return SHELF_E_INVALID_ARGUMENT }
                let me = Unmanaged<OutputCollector>.fromOpaque(context).takeUnretainedValue()
                if size == 0 { return SHELF_OK }
                guard let bytes else { return SHELF_E_INVALID_ARGUMENT }
                guard size <= me.limit - me.data.count else {
                    me.overflowed = true
                    return SHELF_E_LIMIT
                }
                me.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size)
                return CallCancellation.isCurrentCallCancelled ? SHELF_E_CANCELLED : SHELF_OK
            })
        return try withUnsafePointer(to: &writer) { try body($0) }
    }

    /// The failure of a call whose answer was cut at the limit, in the host's words: the plugin may have passed the
    /// writer's refusal on with words of its own, or ignored it and returned SHELF_OK with half an answer.
    func overflow(_ plugin: LoadedPlugin) -> PluginCallError? {
        guard overflowed else { return nil }
        return PluginCallError(
            status: SHELF_E_LIMIT,
            message: "the plugin \"\(plugin.descriptor.name)\" (\(plugin.descriptor.id)) wrote more than "
                + "\(limit >> 20) MiB in one answer, more than shelf takes", location: "",
            pluginID: plugin.descriptor.id)
    }

    static let jsonLimit = 256 << 20
    static let resourceLimit = 1 << 30
}
