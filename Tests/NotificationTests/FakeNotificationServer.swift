import CDBus
import Foundation

/// A small `org.freedesktop.Notifications` server of the test's own, on the test's private bus, spoken through
/// libdbus. It records every call and answers as told: properly, with garbage, with an error, or not at all.
final class FakeNotificationServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        case proper
        /// A method return whose argument is a string, not the uint32 id.
        case garbage
        /// An error reply.
        case failing
    }

    struct Call: Equatable {
        var method: String
        var appName = ""
        var summary = ""
        var body = ""
        var actions: [String] = []
        var expireTimeout: Int32 = 0
        var closedID: UInt32?
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var behaviourValue: Behaviour = .proper
    private var running = true
    private var nextID: UInt32 = 41
    private let connection: OpaquePointer
    private let finished = DispatchSemaphore(value: 0)

    var calls: [Call] { lock.withLock { recorded } }
    var notifyCalls: [Call] { calls.filter { $0.method == "Notify" } }
    var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    init(address: String) throws {
        _ = dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let opened = dbus_connection_open_private(address, &error), dbus_bus_register(opened, &error) != 0 else {
            throw NSError(domain: "FakeNotificationServer", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: error.message.map { String(cString: $0) } ?? "cannot connect"])
        }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        let reply = dbus_bus_request_name(opened, "org.freedesktop.Notifications", UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
        guard reply == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            throw NSError(domain: "FakeNotificationServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot own the name"])
        }
        connection = opened
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func stop() {
        guard lock.withLock({ let was = running; running = false; return was }) else { return }
        finished.wait()
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Waits until `count` Notify calls arrived (or `timeout` passed).
    @discardableResult
    func waitForNotify(count: Int, timeout: TimeInterval = 10) -> [Call] {
        let deadline = Date().addingTimeInterval(timeout)
        while notifyCalls.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return notifyCalls
    }

    private func serve() {
        while lock.withLock({ running }) {
            _ = dbus_connection_read_write(connection, 50)
            while let message = dbus_connection_pop_message(connection) {
                handle(message)
                dbus_message_unref(message)
            }
        }
        finished.signal()
    }

    private func handle(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == shelf_dbus_message_method_call,
              let member = dbus_message_get_member(message).map({ String(cString: $0) }) else { return }
        var call = Call(method: member)
        var reply: OpaquePointer?
        switch member {
        case "Notify":
            var args = DBusMessageIter()
            if dbus_message_iter_init(message, &args) != 0 {
                call.appName = Self.string(&args) ?? ""
                _ = dbus_message_iter_next(&args)   // replaces_id
                _ = dbus_message_iter_next(&args)   // app_icon
                call.summary = Self.string(&args) ?? ""
                call.body = Self.string(&args) ?? ""
                if dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_array {
                    var inner = DBusMessageIter()
                    dbus_message_iter_recurse(&args, &inner)
                    while dbus_message_iter_get_arg_type(&inner) == shelf_dbus_type_string {
                        if let text = Self.string(&inner) { call.actions.append(text) }
                    }
                }
                _ = dbus_message_iter_next(&args)   // actions
                _ = dbus_message_iter_next(&args)   // hints
                if dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_int32 {
                    var timeout: Int32 = 0
                    dbus_message_iter_get_basic(&args, &timeout)
                    call.expireTimeout = timeout
                }
            }
            switch behaviour {
            case .proper:
                reply = dbus_message_new_method_return(message)
                var args = DBusMessageIter()
                dbus_message_iter_init_append(reply, &args)
                var id = lock.withLock { () -> UInt32 in nextID += 1; return nextID }
                _ = dbus_message_iter_append_basic(&args, shelf_dbus_type_uint32, &id)
            case .garbage:
                reply = dbus_message_new_method_return(message)
                var args = DBusMessageIter()
                dbus_message_iter_init_append(reply, &args)
                "\u{1}garbage\u{7f}".withCString { pointer in
                    var value: UnsafePointer<CChar>? = pointer
                    _ = dbus_message_iter_append_basic(&args, shelf_dbus_type_string, &value)
                }
            case .failing:
                reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.Failed", "the notification service is broken")
            }
        case "CloseNotification":
            var args = DBusMessageIter()
            if dbus_message_iter_init(message, &args) != 0, dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_uint32 {
                var id: UInt32 = 0
                dbus_message_iter_get_basic(&args, &id)
                call.closedID = id
            }
            reply = dbus_message_new_method_return(message)
        case "GetCapabilities", "GetServerInformation":
            reply = dbus_message_new_method_return(message)
        default:
            reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        lock.withLock { recorded.append(call) }
        if let reply {
            _ = dbus_connection_send(connection, reply, nil)
            dbus_connection_flush(connection)
            dbus_message_unref(reply)
        }
    }

    /// Reads a string argument and moves on.
    private static func string(_ iterator: inout DBusMessageIter) -> String? {
        guard dbus_message_iter_get_arg_type(&iterator) == shelf_dbus_type_string else {
            _ = dbus_message_iter_next(&iterator)
            return nil
        }
        var value: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &value)
        _ = dbus_message_iter_next(&iterator)
        return value.map { String(cString: $0) }
    }
}
