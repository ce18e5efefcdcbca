import CSecret
import Foundation

/// Passwords and tokens kept in the desktop's Secret Service (GNOME Keyring, KWallet) through libsecret, which
/// CSecret opens on first use. Only tried where there is a session bus; every call is bounded in time, so a
/// keyring that waits for a prompt nobody answers costs seconds, not the command.
struct SecretService: Sendable {
    /// shelf's config folder: secrets of two shelf homes never mix.
    let home: String
    static let timeout: TimeInterval = 8

    /// nil without a session bus, or when `SHELF_SECRET_SERVICE=off` asks for the file.
    init?(home: String, environment: [String: String]) {
        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty,
            environment["SHELF_SECRET_SERVICE"] != "off"
        else { return nil }
        self.home = home
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func store(_ value: String, account: String, field: String) throws {
        let home = self.home
        try Self.bounded {
            var error = [CChar](repeating: 0, count: 512)
            guard
                shelf_secret_store("shelf: \(account) \(field)", home, account, field, value, &error, error.count) == 0
            else {
                throw Failure(description: error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
        }
    }

    /// The stored secret, or nil when there is none.
    func lookup(account: String, field: String) throws -> String? {
        let home = self.home
        return try Self.bounded {
            var error = [CChar](repeating: 0, count: 512)
            var found: Int32 = 0
            let value = shelf_secret_lookup(home, account, field, &found, &error, error.count)
            defer { shelf_secret_free(value) }
            if found < 0 {
                throw Failure(description: error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
            return value.map { String(cString: $0) }
        }
    }

    func clear(account: String, field: String) throws {
        let home = self.home
        try Self.bounded {
            var error = [CChar](repeating: 0, count: 512)
            guard shelf_secret_clear(home, account, field, &error, error.count) == 0 else {
                throw Failure(description: error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
        }
    }

    /// Runs `work` on a thread of its own and waits at most `timeout` for it.
    private static func bounded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try work() }
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + timeout) == .success, let result = box.result else {
            throw Failure(description: "the Secret Service did not answer within \(Int(timeout)) s")
        }
        return try result.get()
    }
}

/// The answer of a call made on another thread. Unchecked Sendable: that thread alone writes it, and it is read only
/// after the thread said it finished.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
