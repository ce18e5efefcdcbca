import Foundation
internal import ShelfPlugins

extension Shelf {
    /// The shelf program running now (its real path), for a command that starts another shelf: a background
    /// download, the systemd units of `shelf watch --install`, the browser app's.
    public var executablePath: String { PluginSearchPath.executablePath() }
}
