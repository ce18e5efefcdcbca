import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Resolving and creating the folders (ShelfValues' `ShelfDirectories`).
///
/// `SHELF_HOME=DIR` puts all three under one folder (`DIR/config`, `DIR/data`, `DIR/cache`), so that a test or a
/// portable install never touches the patron's real library. Nothing is created until asked for.
extension ShelfDirectories {
    /// Resolves the folders from `environment` alone, so that tests pass their own.
    ///
    /// `currentDirectory` anchors a relative `SHELF_HOME`. Relative XDG values are ignored, as the specification
    /// asks; so are empty ones.
    public init(
        environment: [String: String],
        currentDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath
    ) throws {
        if let home = environment["SHELF_HOME"], !home.isEmpty {
            let root =
                home.hasPrefix("/")
                ? URL(fileURLWithPath: home, isDirectory: true)
                : URL(fileURLWithPath: currentDirectory(), isDirectory: true).appendingPathComponent(
                    home, isDirectory: true)
            let standard = root.standardizedFileURL
            self.init(
                config: standard.appendingPathComponent("config", isDirectory: true),
                data: standard.appendingPathComponent("data", isDirectory: true),
                cache: standard.appendingPathComponent("cache", isDirectory: true))
            return
        }

        func base(_ variable: String, default relativeToHome: String) throws -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true).standardizedFileURL
            }
            guard let home = environment["HOME"], home.hasPrefix("/") else {
                throw ShelfDirectoriesError(
                    kind: .noHome, path: nil,
                    message: "shelf cannot tell where to keep its files: neither \(variable) nor HOME is set to an "
                        + "absolute path; set HOME, or SHELF_HOME=DIR to keep everything in DIR")
            }
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(relativeToHome, isDirectory: true).standardizedFileURL
        }

        self.init(
            config: try base("XDG_CONFIG_HOME", default: ".config").appendingPathComponent("shelf", isDirectory: true),
            data: try base("XDG_DATA_HOME", default: ".local/share").appendingPathComponent("shelf", isDirectory: true),
            cache: try base("XDG_CACHE_HOME", default: ".cache").appendingPathComponent("shelf", isDirectory: true))
    }

    /// Creates the config folder if needed and returns it.
    @discardableResult public func createConfig() throws -> URL { try Self.create(config) }
    /// Creates the data folder if needed and returns it.
    @discardableResult public func createData() throws -> URL { try Self.create(data) }
    /// Creates the cache folder if needed and returns it.
    @discardableResult public func createCache() throws -> URL { try Self.create(cache) }

    /// A plugin's own data folder, `data/plugins/<id>`, created if needed.
    public func pluginData(for pluginID: String) throws -> URL {
        try Self.create(
            data.appendingPathComponent("plugins", isDirectory: true)
                .appendingPathComponent(try Self.checked(pluginID), isDirectory: true))
    }

    /// A plugin's own cache folder, `cache/plugins/<id>`, created if needed.
    public func pluginCache(for pluginID: String) throws -> URL {
        try Self.create(
            cache.appendingPathComponent("plugins", isDirectory: true)
                .appendingPathComponent(try Self.checked(pluginID), isDirectory: true))
    }

    /// A plugin id becomes one path component: anything that could name another folder is refused, so a plugin
    /// cannot be handed a neighbour's data or a folder outside shelf's.
    public static func checked(_ pluginID: String) throws -> String {
        guard !pluginID.isEmpty, pluginID != ".", pluginID != "..",
            !pluginID.contains("/"), !pluginID.contains("\0")
        else {
            throw ShelfDirectoriesError(
                kind: .invalidPluginID, path: nil,
                message: "the plugin id \"\(pluginID)\" cannot name a folder (it is empty, \".\" or \"..\", or holds "
                    + "\"/\"): the plugin must declare a plain id such as org.example.epub")
        }
        return pluginID
    }

    private static func create(_ url: URL) throws -> URL {
        try createDirectory(atPath: url.path)
        return url
    }

    /// Creates `path` and any missing parents with mode 0700, as XDG asks: what a patron reads is private.
    /// Folders that already exist keep their mode: they may be the patron's own.
    public static func createDirectory(atPath path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ShelfDirectoriesError(
                    kind: .notADirectory, path: path,
                    message: "\(path) is a file, where shelf needs a folder: move it aside")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(atPath: parent) }
        if mkdir(path, 0o700) == 0 {
            // mkdir honours the umask; a umask cannot widen 0700, but say the mode outright rather than rely on it.
            chmod(path, 0o700)
            return
        }
        // Another process creating the same folder at the same moment is fine.
        guard errno == EEXIST else {
            let code = errno
            let reason = String(cString: strerror(code))
            let denied = code == EACCES || code == EPERM || code == EROFS
            throw ShelfDirectoriesError(
                kind: denied ? .permission : .other, path: path,
                message: "shelf could not create the folder \(path) (\(reason))"
                    + (denied ? ": check the permissions of its parent folder" : ""))
        }
    }
}

public struct ShelfDirectoriesError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable, Equatable {
        case noHome
        case invalidPluginID
        case notADirectory
        case permission
        case other
    }

    public let kind: Kind
    public let path: String?
    public let message: String

    public var description: String { message }
    public var errorDescription: String? { message }
}
