import Foundation
import ShelfValues

/// What a confined plugin may read of where it is installed. Its folder, for the data files it ships beside itself
/// (a dictionary, a font, a table), unless shelf's own data lives there: a folder that is, holds or lies inside
/// shelf's configuration, data or cache folder (a plugin dropped beside the library database, in the home folder,
/// or among the shelf's books) would read it all. Then only the plugin's file is readable.
enum PluginFolder {
    static func reads(plugin path: String, directories: ShelfDirectories?) -> [String] {
        let file = PluginSearchPath.realPath(path) ?? path
        let folder = (file as NSString).deletingLastPathComponent
        // Without shelf's folders known, nothing says the folder is safe to open.
        guard let directories else { return [file] }
        let roots = [directories.config, directories.data, directories.cache].map {
            PluginSearchPath.realPath($0.path) ?? $0.standardizedFileURL.path
        }
        let within = { (inner: String, outer: String) in
            inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
        }
        return roots.contains { within($0, folder) || within(folder, $0) } ? [file] : [folder]
    }
}
