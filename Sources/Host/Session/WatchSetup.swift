internal import ShelfLibrary
import Foundation

// What `shelf watch` sets up around the library's watcher: the lock that keeps one watcher running, and the systemd
// units of `shelf watch --install`.

extension LibrarySession {
    /// The lock in shelf's data folder that only one watcher holds; a second is refused (exit 75). Released with
    /// `release()`, or when the process ends.
    public func watchLock() throws -> WatchLock { WatchLock(try ShelfLibrary.WatchLock(directories: directories)) }
}

/// The one-watcher lock `LibrarySession.watchLock()` took (the library's `ShelfLibrary.WatchLock`, a `flock`).
/// Held by the `shelf watch` process, released once from the thread that took it; not shared between threads.
public final class WatchLock {
    private let lock: ShelfLibrary.WatchLock

    init(_ lock: ShelfLibrary.WatchLock) { self.lock = lock }

    public func release() { lock.release() }
}

extension Shelf {
    /// The systemd user units `shelf watch --install` writes, written.
    public struct WatchUnits: Sendable {
        /// The files written.
        public let files: [String]
        /// The timer to enable (`systemctl --user enable --now NAME`).
        public let timerName: String
    }

    /// Writes shelf-watch.service (runs `shelf watch --once` with this program) and shelf-watch.timer (every
    /// `interval`) into systemd's user folder, passing on the folders and plugin path this shelf was given; enables
    /// nothing.
    public func installWatchUnits(interval: TimeInterval) throws -> WatchUnits {
        let folder = try SystemdUnits.folder(environment: environment, directories: try requireDirectories())
        var unitEnvironment: [String: String] = [:]
        for name in ["SHELF_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "SHELF_PLUGIN_PATH"] {
            if let value = environment[name], !value.isEmpty { unitEnvironment[name] = value }
        }
        let units = SystemdUnits(executable: executablePath, interval: interval, environment: unitEnvironment)
        return WatchUnits(files: try units.write(to: folder), timerName: units.timerName)
    }
}
