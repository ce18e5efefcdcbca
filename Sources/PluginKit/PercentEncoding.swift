/// RFC 3986 percent-encoding, for the query strings, form bodies and OAuth 1.0a signatures that
/// connectors send.
public enum PercentEncoding {
    /// The unreserved characters (A-Z a-z 0-9 - . _ ~) stay; every other byte of the UTF-8 becomes
    /// %XX with upper-case hex digits, which OAuth 1.0a requires of a signature base string.
    public static func encode(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `name=value` pairs joined with `&`, both sides encoded: a query string or an
    /// application/x-www-form-urlencoded body.
    public static func form(_ pairs: [(String, String)]) -> String {
        pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    private static let hex = Array("0123456789ABCDEF".utf8)
}
