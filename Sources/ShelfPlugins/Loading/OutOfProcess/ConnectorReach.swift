import Foundation

/// Where a confined connector's HTTP requests may go (issue 30, item 6): only to the hosts of its own service, as
/// the connection's settings name them (a "baseURL" the patron set, any http(s) address among the settings) or as
/// its `describe` declares them (a setting's "default" address). Loopback addresses only when a setting names one
/// (the tests' fake services), and then only that port: never another service on this machine. A plugin that is no
/// connector gets no HTTP at all.
struct ConnectorReach: Sendable {
    /// "host" for a host on the network, "host:port" for a loopback one.
    private(set) var origins: Set<String> = []

    /// The origins of the http(s) addresses among `settings` (the connection's JSON object) and the defaults the
    /// connector's description (`describe`'s JSON) declares.
    init(settings: String?, description: String?) {
        func strings(_ json: String?) -> Any? {
            json.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
        }
        if let values = strings(settings) as? [String: Any] {
            for case let value as String in values.values { add(value, namedBySetting: true) }
        }
        if let described = strings(description) as? [String: Any],
            let declared = described["settings"] as? [[String: Any]]
        {
            for case let value as String in declared.compactMap({ $0["default"] }) { add(value, namedBySetting: false) }
        }
    }

    private mutating func add(_ address: String, namedBySetting: Bool) {
        // Several addresses in one setting (space-separated) are not a service's address: only whole values count.
        guard !address.contains(" "), let key = Self.origin(address) else { return }
        // A declared default may not point at this machine: only the patron's own setting does.
        if Self.isLoopback(key.host), !namedBySetting { return }
        origins.insert(key.key)
    }

    /// Adds the origins of another connection made in the same child (one child may hold several connections of
    /// the plugin; each still reaches only what its plugin's settings and description name).
    mutating func include(_ other: ConnectorReach) { origins.formUnion(other.origins) }

    /// Whether a request to `url` may go out.
    func allows(_ url: String) -> Bool {
        guard let key = Self.origin(url) else { return false }
        return origins.contains(key.key)
    }

    private static func origin(_ address: String) -> (host: String, key: String)? {
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return (host, isLoopback(host) ? "\(host):\(port)" : host)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1"
            || host == "[::1]"
            || host == "0.0.0.0" || host.hasPrefix("[::ffff:127.") || host == "0"
    }
}
