import Foundation
import PluginAPI
import PluginKit

/// META-INF/encryption.xml, and the DRM scheme the container declares.
public struct EncryptionInfo {
    public static let idpfFont = "http://www.idpf.org/2008/embedding"
    public static let adobeFont = "http://ns.adobe.com/pdf/enc#RC"

    public enum Scheme: String {
        case adept = "http://ns.adobe.com/adept"
        case lcp = "http://readium.org/2014/01/lcp"
        case unknown = ""

        public var displayName: String {
            switch self {
            case .adept: return "Adobe ADEPT"
            case .lcp: return "Readium LCP"
            case .unknown: return "an unknown DRM"
            }
        }
    }

    public struct Item {
        public var algorithm: String
        public var originalLength: UInt64?
        public var compressed: Bool
        public var isFontObfuscation: Bool {
            algorithm == EncryptionInfo.idpfFont || algorithm == EncryptionInfo.adobeFont
        }
    }

    public var items: [String: Item] = [:]
    public var scheme: Scheme = .unknown
    public var warnings: [String] = []

    public init() {}

    public static func parse(_ data: Data?, hasRights: Bool, hasLCPLicense: Bool) -> EncryptionInfo {
        var info = EncryptionInfo()
        if hasLCPLicense { info.scheme = .lcp } else if hasRights { info.scheme = .adept }
        guard let data else { return info }
        // Said: the warning below.
        guard let doc = try? XML.parseRaw(data, name: "META-INF/encryption.xml"), let root = doc.root else {
            info.warnings.append("META-INF/encryption.xml cannot be read; encrypted items may show as garbage")
            return info
        }
        for ed in root.descendants("EncryptedData") {
            guard let method = ed.child("EncryptionMethod")?.attr("Algorithm"),
                let uri = ed.descendants("CipherReference").first?.attr("URI"),
                let path = Paths.resolve(uri, against: "")
            else { continue }
            var item = Item(algorithm: method.trimmedASCII, originalLength: nil, compressed: false)
            for c in ed.descendants("Compression") {
                item.compressed = c.attr("Method") == "8"
                item.originalLength = c.attr("OriginalLength").flatMap { UInt64($0.trimmedASCII) }
            }
            // Scheme hints inside KeyInfo.
            if let keyInfo = ed.child("KeyInfo") {
                for e in keyInfo.descendants() {
                    if e.isIn(Scheme.adept.rawValue), info.scheme == .unknown { info.scheme = .adept }
                    if e.isNamed("RetrievalMethod"), let u = e.attr("URI"), u.contains("license.lcpl"),
                        info.scheme == .unknown
                    {
                        info.scheme = .lcp
                    }
                }
            }
            info.items[path] = item
        }
        return info
    }

    /// Why an item cannot be read, or nil when it is plain or only font-obfuscated.
    public func protection(of path: String) -> String? {
        guard let item = items[path], !item.isFontObfuscation else { return nil }
        if scheme == .unknown {
            return "'\(path)' is protected by a DRM this app cannot open (encryption algorithm \(item.algorithm))"
        }
        return "'\(path)' is protected by \(scheme.displayName) DRM; open it with an app authorised for this book"
    }

    // MARK: Font de-obfuscation

    /// IDPF: XOR the first 1040 bytes with the SHA-1 of the unique identifier (whitespace removed).
    public static func deobfuscateIDPF(_ data: inout Data, identifier: String) {
        let cleaned = identifier.unicodeScalars.filter { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }
        let key = SHA1.hash(Array(String(String.UnicodeScalarView(cleaned)).utf8))
        xor(&data, key: key, count: 1040)
    }

    /// Adobe: XOR the first 1024 bytes with the 16 bytes of the identifier's UUID.
    public static func deobfuscateAdobe(_ data: inout Data, identifier: String) -> Bool {
        var hex = identifier.lowercased()
        if hex.hasPrefix("urn:uuid:") { hex = String(hex.dropFirst(9)) }
        hex = hex.filter { $0 != "-" && $0 != " " }
        guard hex.count == 32 else { return false }
        var key: [UInt8] = []
        var it = hex.makeIterator()
        while let a = it.next(), let b = it.next() {
            guard let v = UInt8(String([a, b]), radix: 16) else { return false }
            key.append(v)
        }
        xor(&data, key: key, count: 1024)
        return true
    }

    static func xor(_ data: inout Data, key: [UInt8], count: Int) {
        guard !key.isEmpty else { return }
        let n = min(count, data.count)
        data.withUnsafeMutableBytes { buf in
            for i in 0..<n { buf[i] ^= key[i % key.count] }
        }
    }
}

/// SHA-1 (FIPS 180-4), for the IDPF font obfuscation key only.
public enum SHA1 {
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var m = message
        let bitLength = UInt64(message.count) &* 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] = UInt32(m[b]) << 24 | UInt32(m[b + 1]) << 16 | UInt32(m[b + 2]) << 8 | UInt32(m[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = (x << 1) | (x >> 31)
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
                default: f = b ^ c ^ d; k = 0xCA62C1D6
                }
                let t = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = t
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - $0 * 8)) } }
    }
}
