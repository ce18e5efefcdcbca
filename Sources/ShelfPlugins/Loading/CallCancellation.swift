import Foundation
import Synchronization

/// The cancellation of one call into a plugin. plugin.h promises that `is_cancelled` (and the
/// SHELF_E_CANCELLED of `progress` and of a writer) speaks of the call in flight on the asking
/// thread, so one call can be cancelled while a call on another thread goes on: whoever makes a
/// call runs it inside `during`, and the plugin's questions on that thread find this token.
/// Ctrl-C (`HostServices.cancelRequested`) still cancels every call at once.
public final class CallCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Runs `body` (calls into plugins) with this token as the thread's current cancellation.
    public func during<T>(_ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.key, previous) }
        return try body()
    }

    /// The token of the call in flight on this thread, if its caller gave one.
    static var current: CallCancellation? {
        pthread_getspecific(key).map { Unmanaged<CallCancellation>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Whether the call in flight on this thread should stop: its own token, or Ctrl-C.
    static var isCurrentCallCancelled: Bool { HostServices.cancelRequested || current?.isCancelled == true }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
