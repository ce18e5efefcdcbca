import CCrypto
import Foundation

/// Test-side OAuth 1.0a and PKCE, written from the specs and checked against their published examples; the fake
/// servers use them to verify what the plugins send.
enum TestCrypto {
    static func percent(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E
            {
                out.append(Character(Unicode.Scalar(b)))
            } else {
                out += String(format: "%%%02X", b)
            }
        }
        return out
    }

    static func hmacSHA1(key: String, message: String) -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let k = Array(key.utf8), m = Array(message.utf8)
        _ = HMAC(EVP_sha1(), k, Int32(k.count), m, m.count, &out, &length)
        return Data(out.prefix(Int(length))).base64EncodedString()
    }

    /// OAuth 1.0 signature base string (Core 1.0 §9.1 / RFC 5849 §3.4.1).
    static func baseString(method: String, url: String, parameters: [(String, String)]) -> String {
        var pairs: [(String, String)] = parameters.map { (p: (String, String)) -> (String, String) in
            (percent(p.0), percent(p.1))
        }
        pairs.sort { (a: (String, String), b: (String, String)) -> Bool in a.0 == b.0 ? a.1 < b.1 : a.0 < b.0 }
        let normalized: String = pairs.map { (p: (String, String)) -> String in p.0 + "=" + p.1 }.joined(separator: "&")
        return "\(method)&\(percent(url))&\(percent(normalized))"
    }

    static func signature(
        method: String, url: String, parameters: [(String, String)], consumerSecret: String, tokenSecret: String
    ) -> String {
        hmacSHA1(
            key: percent(consumerSecret) + "&" + percent(tokenSecret),
            message: baseString(method: method, url: url, parameters: parameters))
    }

    /// Parses `OAuth k="v", ...`.
    static func authorization(_ header: String) -> [String: String] {
        guard header.hasPrefix("OAuth ") else { return [:] }
        var out: [String: String] = [:]
        for part in header.dropFirst(6).split(separator: ",") {
            let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            out[kv[0]] = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).removingPercentEncoding
        }
        return out
    }

    static func sha256base64url(_ s: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let input = Array(s.utf8)
        _ = SHA256(input, input.count, &digest)
        return Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func form(_ s: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in s.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let decode = { (x: String) in x.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? x }
            out[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return out
    }
}
