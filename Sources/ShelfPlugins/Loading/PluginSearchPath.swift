import ShelfCore
import Foundation

/// Where plugins are looked for, in order; the first plugin with a given id wins, so a plugin
/// on an explicit path overrides a bundled one of the same id.
public struct PluginSearchPath: Sendable {
    public enum Entry: Equatable, Sendable {
        /// A directory: every `*.so` in it is a plugin.
        case directory(String)
        /// The executable's own directory, where only `libshelf-*.so` count (it holds other files).
        case bundled(String)
        /// One library named explicitly.
        case file(String)
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// --plugin-path, then $SHELF_PLUGIN_PATH, next to the executable, ~/.local/lib/shelf/plugins,
    /// /usr/local/lib/shelf/plugins when the prefix is /usr, and <prefix>/lib/shelf/plugins.
    public static func standard(
        explicit: [String], environment: [String: String],
        executable: String = Self.executablePath()
    ) -> PluginSearchPath {
        var entries: [Entry] = []
        let fromEnvironment = (environment["SHELF_PLUGIN_PATH"] ?? "").split(separator: ":").map(String.init)
        for item in explicit + fromEnvironment where !item.isEmpty {
            entries.append(item.hasSuffix(".so") ? .file(item) : .directory(item))
        }
        let binDirectory = (executable as NSString).deletingLastPathComponent
        entries.append(.bundled(binDirectory))
        if let home = environment["HOME"], !home.isEmpty {
            entries.append(.directory(home + "/.local/lib/shelf/plugins"))
        }
        let prefix = (binDirectory as NSString).deletingLastPathComponent
        // A packaged shelf (in /usr) also finds the plugins a patron installs by hand, as /usr/local is for.
        if prefix == "/usr" { entries.append(.directory("/usr/local/lib/shelf/plugins")) }
        entries.append(.directory(prefix + "/lib/shelf/plugins"))
        return PluginSearchPath(entries: entries)
    }

    public static func executablePath() -> String {
        realPath("/proc/self/exe") ?? CommandLine.arguments[0]
    }

    /// The path with every symbolic link resolved, or nil when there is no such file. realpath(3)
    /// rather than Foundation's resolvingSymlinksInPath, which cost every command a readlink per path
    /// component per plugin.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The candidate libraries, each real file once, in search order.
    public func candidates() -> [String] {
        var seen = Set<String>()
        var found: [String] = []
        func add(_ path: String) {
            if seen.insert(Self.realPath(path) ?? path).inserted { found.append(path) }
        }
        for entry in entries {
            switch entry {
            case .file(let path):
                add(path)
            case .directory(let dir), .bundled(let dir):
                guard let names = DirectoryNames.list(dir) else { continue }
                let isBundled: Bool = {
                    if case .bundled = entry { return true }; return false
                }()
                for name in names.sorted() where name.hasSuffix(".so") {
                    if isBundled && !name.hasPrefix("libshelf-") { continue }
                    add(dir + "/" + name)
                }
            }
        }
        return found
    }
}
