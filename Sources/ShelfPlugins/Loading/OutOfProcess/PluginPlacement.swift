import Foundation
import ShelfCore

/// Whether a plugin runs in shelf's own process or in a sandboxed child of its own (RemotePlugin).
///
/// By default the plugins shelf ships (libshelf-*.so beside the shelf executable, or in <prefix>/lib/shelf/plugins)
/// run in process, and every other plugin out of process. Two settings in the environment move plugins by id
/// (comma-separated), or all of them with `all`:
///   SHELF_PLUGINS_OUT_OF_PROCESS=org.shelf.epub3,org.shelf.audiobook   (or `all`)
///   SHELF_PLUGINS_IN_PROCESS=org.example.fb2                            (or `all`)
/// A plugin named in both runs out of process. Out of process:
///   SHELF_PLUGIN_TIMEOUT (seconds, default 30): how long a plugin may stay silent in one call before it is stopped;
///   SHELF_PLUGIN_CALL_LIMIT (seconds, default 600): how long one call may take in all, however much progress the
///     plugin reports;
///   SHELF_PLUGIN_MEMORY (MiB, default 2048; 0: no limit): the memory a plugin's process may map;
///   SHELF_PLUGIN_CONFINEMENT=off runs the children without Landlock, seccomp and the memory limit (for finding out
///     whether the sandbox is what breaks a plugin).
public struct PluginPlacement: Sendable {
    let outOfProcess: Set<String>
    let inProcess: Set<String>
    let deadline: TimeInterval
    let callLimit: TimeInterval
    /// Bytes; 0 for none.
    let memoryLimit: UInt64
    let confined: Bool
    /// The environment these settings were read from (a `Shelf`'s): the children start with it.
    let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
        func ids(_ key: String) -> Set<String> {
            Set(
                (environment[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                })
        }
        outOfProcess = ids("SHELF_PLUGINS_OUT_OF_PROCESS")
        inProcess = ids("SHELF_PLUGINS_IN_PROCESS")
        deadline = environment["SHELF_PLUGIN_TIMEOUT"].flatMap(Double.init).map { max($0, 0.1) } ?? 30
        callLimit = environment["SHELF_PLUGIN_CALL_LIMIT"].flatMap(Double.init).map { max($0, 0.1) } ?? 600
        memoryLimit = environment["SHELF_PLUGIN_MEMORY"].flatMap(UInt64.init).map { $0 << 20 } ?? (2048 << 20)
        confined = environment["SHELF_PLUGIN_CONFINEMENT"] != "off"
    }

    /// Whether the plugin `id` (nil before its descriptor is read) found at `path` runs out of process.
    public func runsOutOfProcess(id: String?, shipped: Bool) -> Bool {
        if let id, outOfProcess.contains(id) { return true }
        if let id, inProcess.contains(id) { return false }
        if outOfProcess.contains("all") { return true }
        if inProcess.contains("all") { return false }
        return !shipped
    }
}

extension PluginSearchPath {
    /// Whether the library at `path` is one shelf ships: a libshelf-*.so beside the executable or in
    /// <prefix>/lib/shelf/plugins. A plugin from --plugin-path, SHELF_PLUGIN_PATH or ~/.local is a third party's.
    public func isShipped(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        guard name.hasPrefix("libshelf-") else { return false }
        let folder =
            Self.realPath((path as NSString).deletingLastPathComponent) ?? (path as NSString).deletingLastPathComponent
        for entry in entries {
            guard case .bundled(let bin) = entry else { continue }
            let prefix = (bin as NSString).deletingLastPathComponent
            for shipped in [bin, prefix + "/lib/shelf/plugins"] where (Self.realPath(shipped) ?? shipped) == folder {
                return true
            }
        }
        return false
    }
}
