import Foundation
import Synchronization

/// What shelf is waiting for right now, for a front end to show ("Waiting for library.example.org (borrow)… 4 s
/// of 20 s"), so that a slow server is never a silent one. Reported about once a second while a request has no
/// complete answer yet, and once more with `finished` when it is over.
public struct NetworkWait: Sendable {
    /// The server asked (host and port), never the full address: queries can carry tokens.
    public var server: String
    /// The last part of the path, to tell a borrow from a feed.
    public var resource: String
    public var elapsed: TimeInterval
    /// Seconds the command may still wait in all (its deadline), when it has one.
    public var limit: TimeInterval?
    public var finished: Bool

    init(url: URL, elapsed: TimeInterval, limit: TimeInterval?, finished: Bool) {
        server = (url.host ?? "?") + (url.port.map { ":\($0)" } ?? "")
        resource = url.lastPathComponent
        self.elapsed = elapsed
        self.limit = limit
        self.finished = finished
    }

    /// Words for a terminal line.
    public var words: String {
        let seconds = Int(elapsed.rounded(.down))
        return "Waiting for \(server)" + (resource.isEmpty || resource == "/" ? "" : " (\(resource))")
            + "… \(seconds) s" + (limit.map { " of at most \(Int($0.rounded())) s; Ctrl-C stops" } ?? "; Ctrl-C stops")
    }

    private static let observer = Mutex<(@Sendable (NetworkWait) -> Void)?>(nil)

    /// Set by a front end that shows waits (on a terminal); nil shows nothing.
    public static func observe(_ report: (@Sendable (NetworkWait) -> Void)?) { observer.withLock { $0 = report } }

    static func report(_ wait: NetworkWait) {
        let report = observer.withLock { $0 }
        report?(wait)
    }
}

/// Turns the ticks of one request (libcurl's progress callback, about once a second, and the pauses between
/// attempts) into `NetworkWait` reports: nothing in the first second, then one per whole second.
final class WaitReporter {
    private let url: URL
    private let limit: TimeInterval?
    private let start = ProcessInfo.processInfo.systemUptime
    private var reported = 0

    init(url: URL, limit: TimeInterval?) {
        self.url = url
        self.limit = limit
    }

    func tick() {
        let elapsed = ProcessInfo.processInfo.systemUptime - start
        let second = Int(elapsed)
        guard second >= 1, second != reported else { return }
        reported = second
        NetworkWait.report(NetworkWait(url: url, elapsed: elapsed, limit: limit, finished: false))
    }

    func finish() {
        guard reported > 0 else { return }
        NetworkWait.report(
            NetworkWait(
                url: url, elapsed: ProcessInfo.processInfo.systemUptime - start, limit: limit,
                finished: true))
    }
}
