import CCrypto
import Foundation
import PluginKit

/// OAuth 1.0a request signing (RFC 5849 §3.4, HMAC-SHA1), for the legacy Goodreads API.
struct OAuth1 {
    var consumerKey: String
    var consumerSecret: String
    var token: String?
    var tokenSecret: String?

    /// The Authorization header for a request. `parameters` are the query and form-body parameters.
    func authorization(
        method: String, url: String, parameters: [(String, String)],
        extra: [(String, String)] = [], nonce: String = OAuth1.nonce(),
        timestamp: String = String(Int(Date().timeIntervalSince1970))
    ) -> String {
        var oauth: [(String, String)] =
            [
                ("oauth_consumer_key", consumerKey), ("oauth_nonce", nonce), ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", timestamp), ("oauth_version", "1.0")
            ] + extra
        if let token { oauth.append(("oauth_token", token)) }
        let signature = sign(method: method, url: url, parameters: parameters + oauth)
        oauth.append(("oauth_signature", signature))
        return "OAuth "
            + oauth.sorted { $0.0 < $1.0 }.map { "\(PercentEncoding.encode($0.0))=\"\(PercentEncoding.encode($0.1))\"" }
            .joined(separator: ", ")
    }

    func sign(method: String, url: String, parameters: [(String, String)]) -> String {
        let base = OAuth1.baseString(method: method, url: url, parameters: parameters)
        let key = PercentEncoding.encode(consumerSecret) + "&" + PercentEncoding.encode(tokenSecret ?? "")
        return OAuth1.hmacSHA1(key: Array(key.utf8), message: Array(base.utf8)).base64EncodedString()
    }

    /// The signature base string: METHOD&url&sorted-encoded-parameters (RFC 5849 §3.4.1).
    static func baseString(method: String, url: String, parameters: [(String, String)]) -> String {
        var pairs: [(String, String)] = parameters.map { (PercentEncoding.encode($0.0), PercentEncoding.encode($0.1)) }
        pairs.sort { (a: (String, String), b: (String, String)) -> Bool in a.0 == b.0 ? a.1 < b.1 : a.0 < b.0 }
        let encoded: String = pairs.map { (p: (String, String)) -> String in p.0 + "=" + p.1 }.joined(separator: "&")
        return method.uppercased() + "&" + PercentEncoding.encode(baseURL(url)) + "&" + PercentEncoding.encode(encoded)
    }

    /// Scheme and host lowercased, default port dropped, no query or fragment (§3.4.1.2).
    static func baseURL(_ url: String) -> String {
        guard var c = URLComponents(string: url) else { return url }
        c.query = nil
        c.fragment = nil
        c.scheme = c.scheme?.lowercased()
        c.host = c.host?.lowercased()
        if (c.scheme == "http" && c.port == 80) || (c.scheme == "https" && c.port == 443) { c.port = nil }
        return c.string ?? url
    }

    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> Data {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                HMAC(EVP_sha1(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &length)
            }
        }
        return Data(out.prefix(Int(length)))
    }

    static func nonce() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        if RAND_bytes(&bytes, Int32(bytes.count)) != 1 {
            bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
