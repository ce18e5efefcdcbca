import Foundation

/// Where a plugin runs, and why (`shelf plugins`, docs/json.md): in shelf's own process, or in a process of its own
/// (shelf-plugin-sandbox), confined by Landlock and seccomp unless SHELF_PLUGIN_CONFINEMENT=off says otherwise.
public struct PluginRunPlace: Equatable, Sendable {
    public enum Place: String, Codable, Sendable {
        /// dlopen'd into shelf: a crash is shelf's crash.
        case inProcess = "in-process"
        /// In shelf-plugin-sandbox, with Landlock and seccomp.
        case confined
        /// In shelf-plugin-sandbox, without Landlock and seccomp (SHELF_PLUGIN_CONFINEMENT=off).
        case unconfined
    }

    public let place: Place
    /// Why it runs there, a clause: "shelf ships it", "SHELF_PLUGINS_OUT_OF_PROCESS names it".
    public let because: String

    package init(place: Place, because: String) {
        self.place = place
        self.because = because
    }

    /// One line for people: "in shelf's process (shelf ships it)".
    public var inWords: String {
        switch place {
        case .inProcess: return "in shelf's process (\(because))"
        case .confined: return "confined, in a process of its own (\(because))"
        case .unconfined: return "in a process of its own, not confined (\(because))"
        }
    }
}
