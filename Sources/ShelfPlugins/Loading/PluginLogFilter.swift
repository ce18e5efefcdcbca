import Foundation
import PluginAPI
import Synchronization

/// Which plugin log lines shelf shows: SHELF_LOG as plugin.h documents it, like GStreamer's GST_DEBUG. A comma-
/// separated list of LEVEL (every plugin) and PLUGIN-ID:LEVEL (one plugin; a trailing '*' matches ids by prefix);
/// the most specific entry that matches wins: an exact id, then the longest prefix, then the bare level.
/// Without SHELF_LOG, warnings and errors are shown. The registry reads it from the environment the `Shelf` was made
/// with and hands it to each plugin's host services, which filter the plugin's lines before any sink sees them.
public struct PluginLogFilter: Equatable, Sendable {
    struct Rule: Equatable, Sendable {
        let pattern: String
        let isPrefix: Bool
        let threshold: Int32
    }

    static let levels: [String: Int32] = [
        "debug": SHELF_LOG_DEBUG, "info": SHELF_LOG_INFO, "warning": SHELF_LOG_WARNING, "warn": SHELF_LOG_WARNING,
        "error": SHELF_LOG_ERROR, "none": SHELF_LOG_ERROR + 1
    ]

    private(set) var threshold: Int32 = SHELF_LOG_WARNING
    private(set) var rules: [Rule] = []

    /// Reads a SHELF_LOG value; entries it cannot read (an unknown level) are ignored.
    public init(_ text: String?) {
        for entry in (text ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !entry.isEmpty {
            guard let colon = entry.lastIndex(of: ":") else {
                if let level = Self.levels[entry.lowercased()] { threshold = level }
                continue
            }
            guard let level = Self.levels[entry[entry.index(after: colon)...].lowercased()] else { continue }
            let id = String(entry[..<colon])
            guard !id.isEmpty else { continue }
            rules.append(
                id.hasSuffix("*")
                    ? Rule(pattern: String(id.dropLast()), isPrefix: true, threshold: level)
                    : Rule(pattern: id, isPrefix: false, threshold: level))
        }
    }

    /// The lowest level shown for `pluginID`.
    func threshold(for pluginID: String) -> Int32 {
        if let exact = rules.last(where: { !$0.isPrefix && $0.pattern == pluginID }) { return exact.threshold }
        let prefixes = rules.filter { $0.isPrefix && pluginID.hasPrefix($0.pattern) }
        if let longest = prefixes.max(by: { $0.pattern.count < $1.pattern.count }) { return longest.threshold }
        return threshold
    }

    func shows(_ level: Int32, from pluginID: String) -> Bool { level >= threshold(for: pluginID) }

    /// The filter SHELF_LOG sets in `environment`.
    public init(environment: [String: String]) { self.init(environment["SHELF_LOG"]) }
}

/// What of a plugin's log line reaches the terminal: one line, its control characters shown as escapes, so that no
/// plugin can forge a line of shelf's own ("innocent\nshelf: error: your password expired") or move the cursor, clear
/// the screen or retitle the window with escape sequences; and at most `burst` lines a plugin in a row, then
/// `perSecond` a second, the rest counted and said in one line (a plugin logging in a loop cannot bury shelf's own).
struct PluginLogLimiter: Sendable {
    static let burst = 100.0
    static let perSecond = 20.0

    /// The line as shown: C0 and C1 controls, DEL, and the invisible characters that reorder or hide text, escaped.
    static func safe(_ message: String) -> String {
        var out = ""
        out.reserveCapacity(message.utf8.count)
        for scalar in message.unicodeScalars.prefix(4096) {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private struct Bucket {
        var tokens = PluginLogLimiter.burst
        var last = DispatchTime.now()
        var dropped = 0
    }

    private static let buckets = Mutex<[String: Bucket]>([:])

    /// Whether the next line of `pluginID` is shown, and how many of its lines were held back before it.
    static func admit(_ pluginID: String) -> (show: Bool, dropped: Int) {
        buckets.withLock { all in
            var b = all[pluginID] ?? Bucket()
            let now = DispatchTime.now()
            b.tokens = min(burst, b.tokens + Double(now.uptimeNanoseconds - b.last.uptimeNanoseconds) / 1e9 * perSecond)
            b.last = now
            defer { all[pluginID] = b }
            guard b.tokens >= 1 else {
                b.dropped += 1
                return (false, 0)
            }
            b.tokens -= 1
            let dropped = b.dropped
            b.dropped = 0
            return (true, dropped)
        }
    }
}
