import Foundation
import PluginAPI

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
        "error": SHELF_LOG_ERROR, "none": SHELF_LOG_ERROR + 1,
    ]

    private(set) var threshold: Int32 = SHELF_LOG_WARNING
    private(set) var rules: [Rule] = []

    /// Reads a SHELF_LOG value; entries it cannot read (an unknown level) are ignored.
    public init(_ text: String?) {
        for entry in (text ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let colon = entry.lastIndex(of: ":") else {
                if let level = Self.levels[entry.lowercased()] { threshold = level }
                continue
            }
            guard let level = Self.levels[entry[entry.index(after: colon)...].lowercased()] else { continue }
            let id = String(entry[..<colon])
            guard !id.isEmpty else { continue }
            rules.append(id.hasSuffix("*") ? Rule(pattern: String(id.dropLast()), isPrefix: true, threshold: level)
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
