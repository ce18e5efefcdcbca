import ShelfCore
import CDBus
import Foundation

/// Hands notifications to the desktop's notification service (the freedesktop Desktop Notifications
/// specification: `org.freedesktop.Notifications.Notify` on the session bus), spoken by shelf itself through
/// libdbus, which CDBus opens on first use. No session bus (no `DBUS_SESSION_BUS_ADDRESS`), no service, an answer
/// that is not one, or no libdbus (`libraryProblem`, which `NotificationDelivery` reports): the notification simply
/// does not reach the desktop; shelf never fails for it.
///
/// The summary is the whole text and the body is empty, so a service that shows only the summary still shows
/// all of it, and the expanded notification shows the same text.
public final class DesktopNotifier {
    public static let service = "org.freedesktop.Notifications"
    public static let path = "/org/freedesktop/Notifications"
    public static let interface = "org.freedesktop.Notifications"

    private var connection: OpaquePointer?
    /// How long to wait for the service's answer.
    public let timeoutMilliseconds: Int32

    /// Connects to the session bus named by `environment`; nil when there is none, it cannot be reached, or libdbus
    /// cannot be opened (`libraryProblem` says so).
    public init?(environment: [String: String], timeoutMilliseconds: Int32 = 3000) {
        guard let address = Self.busAddress(environment) else { return nil }
        self.timeoutMilliseconds = timeoutMilliseconds
        guard let opened = shelf_dbus_connect(address, nil, 0) else { return nil }
        connection = opened
    }

    /// Why notifications cannot reach the desktop although there is a session bus: libdbus (Debian's libdbus-1-3),
    /// opened on first use, cannot be opened; the message says what to install. nil when there is no session bus
    /// (nothing to reach, nothing to say) or libdbus is there.
    public static func libraryProblem(environment: [String: String]) -> String? {
        guard busAddress(environment) != nil, let failure = shelf_dbus_load() else { return nil }
        return String(cString: failure)
    }

    private static func busAddress(_ environment: [String: String]) -> String? {
        guard let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty else { return nil }
        return address
    }

    deinit { close() }

    public func close() {
        guard let connection else { return }
        shelf_dbus_connection_flush(connection)
        shelf_dbus_disconnect(connection)
        self.connection = nil
    }

    /// Sends one notification; returns the id the service gave it, or nil when it did not answer with one.
    public func notify(_ text: String, appName: String = "shelf", body: String = "") -> UInt32? {
        guard let connection,
            let message = shelf_dbus_message_new_method_call(Self.service, Self.path, Self.interface, "Notify")
        else { return nil }
        defer { shelf_dbus_message_unref(message) }
        var args = shelf_dbus_iter()
        shelf_dbus_message_iter_init_append(message, &args)
        // susssasa{sv}i: app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout.
        guard Self.append(&args, string: appName), Self.append(&args, uint32: 0), Self.append(&args, string: ""),
            Self.append(&args, string: text), Self.append(&args, string: body)
        else { return nil }
        var actions = shelf_dbus_iter()
        guard shelf_dbus_message_iter_open_container(&args, shelf_dbus_type_array, "s", &actions) != 0,
            shelf_dbus_message_iter_close_container(&args, &actions) != 0
        else { return nil }
        var hints = shelf_dbus_iter()
        guard shelf_dbus_message_iter_open_container(&args, shelf_dbus_type_array, "{sv}", &hints) != 0,
            shelf_dbus_message_iter_close_container(&args, &hints) != 0
        else { return nil }
        var timeout: Int32 = -1
        guard shelf_dbus_message_iter_append_basic(&args, shelf_dbus_type_int32, &timeout) != 0 else { return nil }

        guard let reply = call(connection, message) else { return nil }
        defer { shelf_dbus_message_unref(reply) }
        var result = shelf_dbus_iter()
        guard shelf_dbus_message_iter_init(reply, &result) != 0,
            shelf_dbus_message_iter_get_arg_type(&result) == shelf_dbus_type_uint32
        else { return nil }
        var id: UInt32 = 0
        shelf_dbus_message_iter_get_basic(&result, &id)
        return id
    }

    /// Asks the service to take a notification away (it no longer holds). True when the service answered.
    @discardableResult
    public func close(id: UInt32) -> Bool {
        guard let connection,
            let message = shelf_dbus_message_new_method_call(
                Self.service, Self.path, Self.interface, "CloseNotification")
        else { return false }
        defer { shelf_dbus_message_unref(message) }
        var args = shelf_dbus_iter()
        shelf_dbus_message_iter_init_append(message, &args)
        guard Self.append(&args, uint32: id), let reply = call(connection, message) else { return false }
        shelf_dbus_message_unref(reply)
        return true
    }

    /// A method call and its return; nil for an error reply, no reply, or a timeout.
    private func call(_ connection: OpaquePointer, _ message: OpaquePointer) -> OpaquePointer? {
        guard let reply = shelf_dbus_call(connection, message, timeoutMilliseconds) else { return nil }
        guard shelf_dbus_message_get_type(reply) == shelf_dbus_message_method_return else {
            shelf_dbus_message_unref(reply)
            return nil
        }
        return reply
    }

    private static func append(_ iterator: inout shelf_dbus_iter, string: String) -> Bool {
        // libdbus refuses (and aborts on) strings that are not UTF-8 or hold NUL: Swift strings are UTF-8; NULs go.
        let clean = string.replacingOccurrences(of: "\0", with: "")
        return clean.withCString { pointer in
            var value: UnsafePointer<CChar>? = pointer
            return shelf_dbus_message_iter_append_basic(&iterator, shelf_dbus_type_string, &value) != 0
        }
    }

    private static func append(_ iterator: inout shelf_dbus_iter, uint32: UInt32) -> Bool {
        var value = uint32
        return shelf_dbus_message_iter_append_basic(&iterator, shelf_dbus_type_uint32, &value) != 0
    }
}
