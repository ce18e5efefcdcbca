import CDBus
import Foundation

/// A small `org.freedesktop.Notifications` server of the test's own, on the test's private bus, spoken through
/// libdbus (CDBus, as shelf does). It records every call and answers as told: properly, with garbage, with an
/// error, or not at all.
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
        var failure = [CChar](repeating: 0, count: 512)
        guard let opened = shelf_dbus_connect(address, &failure, failure.count) else {
            throw NSError(
                domain: "FakeNotificationServer", code: 1,
                userInfo: [NSLocalizedDescriptionKey: String(cString: failure)])
        }
        let reply = shelf_dbus_request_name(opened, "org.freedesktop.Notifications", shelf_dbus_name_flag_do_not_queue)
        guard reply == shelf_dbus_request_name_reply_primary_owner else {
            shelf_dbus_disconnect(opened)
            throw NSError(
                domain: "FakeNotificationServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot own the name"])
        }
        connection = opened
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func stop() {
        guard
            lock.withLock({
                let was = running; running = false; return was
            })
        else { return }
        finished.wait()
        shelf_dbus_disconnect(connection)
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
            _ = shelf_dbus_connection_read_write(connection, 50)
            while let message = shelf_dbus_connection_pop_message(connection) {
                handle(message)
                shelf_dbus_message_unref(message)
            }
        }
        finished.signal()
    }

    private func handle(_ message: OpaquePointer) {
        guard shelf_dbus_message_get_type(message) == shelf_dbus_message_method_call,
            let member = shelf_dbus_message_get_member(message).map({ String(cString: $0) })
        else { return }
        var call = Call(method: member)
        var reply: OpaquePointer?
        switch member {
        case "Notify":
            var args = shelf_dbus_iter()
            if shelf_dbus_message_iter_init(message, &args) != 0 {
                call.appName = Self.string(&args) ?? ""
                _ = shelf_dbus_message_iter_next(&args)  // replaces_id
                _ = shelf_dbus_message_iter_next(&args)  // app_icon
                call.summary = Self.string(&args) ?? ""
                call.body = Self.string(&args) ?? ""
                if shelf_dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_array {
                    var inner = shelf_dbus_iter()
                    shelf_dbus_message_iter_recurse(&args, &inner)
                    while shelf_dbus_message_iter_get_arg_type(&inner) == shelf_dbus_type_string {
                        if let text = Self.string(&inner) { call.actions.append(text) }
                    }
                }
                _ = shelf_dbus_message_iter_next(&args)  // actions
                _ = shelf_dbus_message_iter_next(&args)  // hints
                if shelf_dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_int32 {
                    var timeout: Int32 = 0
                    shelf_dbus_message_iter_get_basic(&args, &timeout)
                    call.expireTimeout = timeout
                }
            }
            switch behaviour {
            case .proper:
                reply = shelf_dbus_message_new_method_return(message)
                var args = shelf_dbus_iter()
                shelf_dbus_message_iter_init_append(reply, &args)
                var id = lock.withLock { () -> UInt32 in
                    nextID += 1; return nextID
                }
                _ = shelf_dbus_message_iter_append_basic(&args, shelf_dbus_type_uint32, &id)
            case .garbage:
                reply = shelf_dbus_message_new_method_return(message)
                var args = shelf_dbus_iter()
                shelf_dbus_message_iter_init_append(reply, &args)
                "\u{1}garbage\u{7f}".withCString { pointer in
                    var value: UnsafePointer<CChar>? = pointer
                    _ = shelf_dbus_message_iter_append_basic(&args, shelf_dbus_type_string, &value)
                }
            case .failing:
                reply = shelf_dbus_message_new_error(
                    message, "org.freedesktop.DBus.Error.Failed", "the notification service is broken")
            }
        case "CloseNotification":
            var args = shelf_dbus_iter()
            if shelf_dbus_message_iter_init(message, &args) != 0,
                shelf_dbus_message_iter_get_arg_type(&args) == shelf_dbus_type_uint32
            {
                var id: UInt32 = 0
                shelf_dbus_message_iter_get_basic(&args, &id)
                call.closedID = id
            }
            reply = shelf_dbus_message_new_method_return(message)
        case "GetCapabilities", "GetServerInformation":
            reply = shelf_dbus_message_new_method_return(message)
        default:
            reply = shelf_dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        lock.withLock { recorded.append(call) }
        if let reply {
            _ = shelf_dbus_connection_send(connection, reply)
            shelf_dbus_connection_flush(connection)
            shelf_dbus_message_unref(reply)
        }
    }

    /// Reads a string argument and moves on.
    private static func string(_ iterator: inout shelf_dbus_iter) -> String? {
        guard shelf_dbus_message_iter_get_arg_type(&iterator) == shelf_dbus_type_string else {
            _ = shelf_dbus_message_iter_next(&iterator)
            return nil
        }
        var value: UnsafePointer<CChar>?
        shelf_dbus_message_iter_get_basic(&iterator, &value)
        _ = shelf_dbus_message_iter_next(&iterator)
        return value.map { String(cString: $0) }
    }
}
