import Foundation

/// Keeps credentials out of anything a patron or a log can see.
enum Redaction {
    /// Query parameters that carry secrets in the services shelf talks to (API keys, OAuth tokens).
    static let sensitiveQueryNames: Set<String> = [
        "key", "api_key", "apikey", "token", "access_token", "refresh_token", "password", "passwd",
        "secret", "client_secret", "signature", "sig", "oauth_token", "oauth_signature", "auth"
    ]

    /// The URL without user info, with sensitive query values replaced by `***`.
    static func string(for url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "(an address that could not be parsed)"
        }
        parts.user = nil
        parts.password = nil
        if let items = parts.queryItems, !items.isEmpty {
            parts.percentEncodedQuery = items.map { item in
                let name = item.name.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? item.name
                guard item.value != nil else { return name }
                if sensitiveQueryNames.contains(item.name.lowercased()) { return "\(name)=***" }
                let value = item.value!.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
                return "\(name)=\(value)"
            }.joined(separator: "&")
        }
        return parts.string ?? "(an address that could not be parsed)"
    }

    /// The secret strings a URL carries, to scrub them from free text such as libcurl's messages.
    static func secrets(in url: URL) -> [String] {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        var found = [parts.user, parts.password, parts.percentEncodedUser, parts.percentEncodedPassword]
            .compactMap { $0 }
        for item in parts.queryItems ?? [] where sensitiveQueryNames.contains(item.name.lowercased()) {
            if let value = item.value { found.append(value) }
        }
        return found
    }

    /// The credential parts of header values (the token after "Basic "/"Bearer ", and the whole value).
    static func secrets(in headers: HTTPHeaders) -> [String] {
        var found: [String] = []
        for name in ["Authorization", "Proxy-Authorization", "Cookie"] {
            for value in headers.values(for: name) {
                found.append(value)
                if let space = value.firstIndex(of: " ") {
                    let token = String(value[value.index(after: space)...])
                    found.append(token)
                    if let decoded = Data(base64Encoded: token).flatMap({ String(data: $0, encoding: .utf8) }) {
                        found.append(decoded)
                        found.append(contentsOf: decoded.split(separator: ":", maxSplits: 1).map(String.init))
                    }
                }
            }
        }
        return found
    }

    static func scrub(_ text: String, secrets: [String]) -> String {
        // Longest first, so that a secret containing another is replaced whole. Very short
        // strings are skipped: replacing every "a" would destroy the message and protect nothing.
        secrets.filter { $0.count >= 3 }.sorted { $0.count > $1.count }.reduce(text) {
            $0.replacingOccurrences(of: $1, with: "***")
        }
    }
}
