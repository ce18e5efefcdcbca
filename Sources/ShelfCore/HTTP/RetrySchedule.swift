import Foundation

/// Decides, after each failed attempt, whether to try again and how long to wait first.
struct RetrySchedule {
    let policy: HTTPClient.RetryPolicy
    private(set) var attempts = 0
    private(set) var waited: TimeInterval = 0

    init(_ policy: HTTPClient.RetryPolicy) { self.policy = policy }

    mutating func startAttempt() { attempts += 1 }

    /// The wait before the next attempt, or nil to give up. `serverDelay` is a `Retry-After`.
    mutating func nextDelay(serverDelay: TimeInterval?) -> TimeInterval? {
        guard attempts < policy.maxAttempts else { return nil }
        let backoff = policy.initialDelay * pow(2, Double(max(0, attempts - 1)))
        // Jitter spreads out clients that failed together, so they do not return together.
        var delay = min(policy.maxDelay, backoff * Double.random(in: 0.75...1.0))
        if let serverDelay { delay = min(policy.maxDelay, max(delay, serverDelay)) }
        guard waited + delay <= policy.maxTotalWait else { return nil }
        waited += delay
        return delay
    }

    /// Whether a failure is worth repeating. A request that is not repeatable (a POST, a borrow) is repeated only
    /// when the server cannot have acted on it: the connection never opened, or it said so with 429 or 503.
    static func isRetryable(_ kind: HTTPError.Kind, repeatable: Bool) -> Bool {
        switch kind {
        case .cannotConnect, .cannotResolveHost:
            return true
        case .timedOut, .network, .truncated:
            return repeatable
        case .status(let code, _):
            if code == 429 || code == 503 { return true }
            // 501 and 505 say the server will never do this, however often it is asked.
            return repeatable && (code == 408 || ((500...599).contains(code) && code != 501 && code != 505))
        default:
            return false
        }
    }
}
