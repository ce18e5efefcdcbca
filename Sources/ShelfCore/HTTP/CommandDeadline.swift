import Foundation
import Synchronization

/// The one time limit for everything a command waits for from the network: however many requests, retries and
/// redirects it takes, a command that cannot get its answers by then fails with exit 75 instead of leaving the
/// patron in silence. `SHELF_DEADLINE` (seconds) in the environment a `Shelf` was made with changes it.
///
/// The limit belongs to a command, not to the process: a one-shot command (the command line's `borrow`, `sync`)
/// calls `begin()` and every request it makes shares that one limit; `shelf watch` begins a new one for each round.
/// A process that serves many patron actions over hours (`shelf serve`, a test runner) never begins one, and each
/// request then gets a limit of its own: a process-wide limit started by its first request would refuse every
/// request after the first 20 seconds of its life.
///
/// Downloads of book files are not bound by it (a large audiobook takes as long as it takes); their stall limit
/// (`lowSpeedTime`) ends one that stops moving.
public final class CommandDeadline: Sendable {
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

    /// The limit `SHELF_DEADLINE` in `environment` asks for, or the default.
    public static func configuredSeconds(in environment: [String: String]) -> TimeInterval {
        environment["SHELF_DEADLINE"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? defaultSeconds
    }

    private static let running = Mutex<CommandDeadline?>(nil)

    /// The deadline of the command running now, or, where no command began one, a new one of `seconds` for this
    /// request.
    public static func current(orNew seconds: TimeInterval) -> CommandDeadline {
        running.withLock { $0 } ?? CommandDeadline(seconds: seconds)
    }

    /// Starts one limit of `seconds` for everything this process asks the network from now on: for a one-shot
    /// command, or for each round of a command made of rounds (each `shelf watch` round is one command's worth).
    public static func begin(seconds: TimeInterval) {
        let deadline = CommandDeadline(seconds: seconds)
        running.withLock { $0 = deadline }
    }

    /// Ends the limit `begin` started: requests from now on get a limit of their own again.
    public static func end() {
        running.withLock { $0 = nil }
    }
}
