import Foundation

extension HTTPClient {
    /// Limits that keep a slow, broken or hostile server from hanging or flooding shelf.
    public struct Configuration: Sendable {
        public var userAgent = "shelf/0.1"
        /// Seconds to establish a connection (DNS, TCP and TLS).
        public var connectTimeout: TimeInterval = 15
        /// Seconds for a whole `send`, redirects included. A request's own `timeout` wins.
        public var requestTimeout: TimeInterval = 60
        /// Seconds for a whole `download`; nil means no limit, since books and audiobooks can be
        /// large. The low-speed limit below still ends a download that stops moving.
        public var downloadTimeout: TimeInterval? = nil
        /// A transfer slower than `lowSpeedLimit` bytes per second for `lowSpeedTime` seconds
        /// (whole seconds, at least 1) is abandoned as stalled.
        public var lowSpeedLimit: Int = 16
        public var lowSpeedTime: Int = 30
        /// The largest body `send` keeps in memory.
        public var maxBodySize: Int64 = 32 << 20
        /// The largest file `download` writes.
        public var maxDownloadSize: Int64 = 16 << 30
        public var maxRedirects: Int = 10
        public var retry = RetryPolicy()
        /// When set, `send` keeps to the running command's `CommandDeadline` as well (every attempt and every wait
        /// between attempts ends by then), or, where no command began one, to a limit of these seconds of its own.
        public var commandDeadline: TimeInterval? = nil

        public init() {}
    }

    /// Exponential backoff with a bounded number of attempts and a bounded total wait.
    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included; 1 turns retrying off.
        public var maxAttempts: Int = 4
        /// The wait before the first retry; each later wait doubles it.
        public var initialDelay: TimeInterval = 0.5
        /// No single wait is longer, including one asked for by `Retry-After`.
        public var maxDelay: TimeInterval = 30
        /// When the waits so far plus the next would exceed this, the client gives up instead.
        public var maxTotalWait: TimeInterval = 60

        public init(
            maxAttempts: Int = 4, initialDelay: TimeInterval = 0.5,
            maxDelay: TimeInterval = 30, maxTotalWait: TimeInterval = 60
        ) {
            self.maxAttempts = maxAttempts
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
            self.maxTotalWait = maxTotalWait
        }

        public static let none = RetryPolicy(maxAttempts: 1)
    }
}
