import ShelfCore
import PluginAPI

/// A failed call into a plugin, as the plugin explained it.
public struct PluginCallError: Error, CustomStringConvertible {
    public var status: shelf_status
    public var message: String
    public var location: String
    public var pluginID: String
    /// The plugin's process ended during the call (a crash, an exit, a hang) and is started again for the next one:
    /// asking again may work.
    public var restarts = false

    public init(status: shelf_status, message: String, location: String, pluginID: String) {
        self.status = status
        self.message = message
        self.location = location
        self.pluginID = pluginID
    }

    public var description: String {
        // Without its own words the line still says whose failure it is: an author reads it, not only a patron.
        let what =
            message.isEmpty
            ? "the plugin \(pluginID) failed (\(PluginCallError.name(of: status))) without saying why" : message
        return location.isEmpty ? what : "\(what) (at \(location))"
    }

    public static func name(of status: shelf_status) -> String {
        switch status {
        case SHELF_OK: return "ok"
        case SHELF_E_UNSUPPORTED: return "unsupported"
        case SHELF_E_INVALID_ARGUMENT: return "invalid argument"
        case SHELF_E_NOT_FOUND: return "not found"
        case SHELF_E_BAD_DATA: return "bad data"
        case SHELF_E_PROTECTED: return "protected"
        case SHELF_E_IO: return "input/output error"
        case SHELF_E_LIMIT: return "over a safety limit"
        case SHELF_E_CANCELLED: return "cancelled"
        case SHELF_E_NO_MEMORY: return "out of memory"
        case SHELF_E_INTERNAL: return "internal plugin error"
        default: return "unknown status \(status)"
        }
    }

    /// The exit-code kind for this status: a broken book is bad data, a missing href no input.
    public var kind: ShelfError.Kind {
        if restarts { return .temporary }
        switch status {
        case SHELF_E_BAD_DATA, SHELF_E_LIMIT, SHELF_E_PROTECTED, SHELF_E_INVALID_ARGUMENT: return .badData
        case SHELF_E_NOT_FOUND: return .noInput
        case SHELF_E_UNSUPPORTED: return .unavailable
        case SHELF_E_IO: return .ioError
        case SHELF_E_CANCELLED: return .cancelled
        default: return .software
        }
    }

    public func shelfError(subject: String?) -> ShelfError {
        // A process started again: the browser's words say to try again (ErrorWords), the terminal's whose fault.
        var error = ShelfError(
            kind, description, subject: subject,
            next: restarts ? NextStep(terminal: hint, browser: nil) : hint.map(NextStep.init))
        error.pluginStatus = status
        return error
    }

    private var hint: String? {
        if message.isEmpty && status != SHELF_E_CANCELLED {
            return
                "This is a fault in the plugin \(pluginID) (a call that fails says why in its shelf_error, plugin.h); please report it to its author."
        }
        switch status {
        case SHELF_E_UNSUPPORTED:
            return "The plugin \(pluginID) cannot do this; `shelf plugins` lists what is installed."
        case SHELF_E_PROTECTED: return "This content is locked by a DRM that shelf cannot open."
        case SHELF_E_INTERNAL, SHELF_E_NO_MEMORY:
            return "This is a fault in the plugin \(pluginID); please report it to its author."
        default: return nil
        }
    }
}
