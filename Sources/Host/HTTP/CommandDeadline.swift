import Foundation

/// The one time limit for everything a command waits for from the network: however many requests, retries and
/// redirects it takes, a command that cannot get its answers by then fails with exit 75 instead of leaving the
/// patron in silence. `SHELF_DEADLINE` (seconds) changes it; `shelf watch` starts a new one for each round.
///
/// Downloads of book files are not bound by it (a large audiobook takes as long as it takes); their stall limit
/// (`lowSpeedTime`) ends one that stops moving.
public final class CommandDeadline: @unchecked Sendable {
    /// Well under a minute: long enough for a slow library, short enough that nobody wonders whether shelf hangs.
    public static let defaultSeconds: TimeInterval = 20

    public let seconds: TimeInterval
    private let end: TimeInterval

    public init(seconds: TimeInterval) {
        self.seconds = max(0.1, seconds)
        end = ProcessInfo.processInfo.systemUptime + self.seconds
    }

    /// Seconds left; zero or less once it has passed. Measured on the monotonic clock, so moving the wall clock
    /// neither extends nor ends it.
    public var remaining: TimeInterval { end - ProcessInfo.processInfo.systemUptime }

    /// The limit `SHELF_DEADLINE` asks for, or the default.
    public static var configuredSeconds: TimeInterval {
        ProcessEnvironment.shared["SHELF_DEADLINE"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
            ?? defaultSeconds
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: CommandDeadline?

    /// The deadline of the command running now, started by the first request that asks for it.
    public static var current: CommandDeadline {
        lock.withLock {
            if let running { return running }
            let started = CommandDeadline(seconds: configuredSeconds)
            running = started
            return started
        }
    }

    /// Starts the limit again, for a command made of rounds (each `shelf watch` round is one command's worth).
    public static func restart() {
        lock.withLock { running = CommandDeadline(seconds: configuredSeconds) }
    }
}
