/// Entry names: bytes in the archive, a safe relative path or nothing to shelf.
public enum ZipNames {
    /// Why a name is refused, or nil when it is a safe relative path.
    public static func unsafeReason(_ name: String) -> String? {
        name.utf8.withContiguousStorageIfAvailable(unsafeReason(bytes:)) ?? unsafeReason(bytes: Array(name.utf8))
    }

    static func unsafeReason<C: RandomAccessCollection>(bytes u: C) -> String? where C.Element == UInt8, C.Index == Int {
        if u.isEmpty { return "empty name" }
        if u[u.startIndex] == UInt8(ascii: "/") { return "absolute path" }
        if u.count >= 2, u[u.startIndex + 1] == UInt8(ascii: ":") { return "drive letter" }
        var segmentStart = u.startIndex
        for i in u.startIndex...u.endIndex {
            if i < u.endIndex {
                if u[i] == UInt8(ascii: "\\") { return "backslash in name" }
                if u[i] == 0 { return "NUL in name" }
                if u[i] != UInt8(ascii: "/") { continue }
            }
            if i - segmentStart == 2 && u[segmentStart] == UInt8(ascii: ".") && u[segmentStart + 1] == UInt8(ascii: ".") {
                return "'..' component"
            }
            segmentStart = i + 1
        }
        return nil
    }

    /// A name as text: UTF-8 when it is UTF-8 (flagged or not, as zip tools guess); otherwise the
    /// IBM PC code page that the zip format names as the default, which old Windows tools wrote.
    static func decode(_ bytes: UnsafeRawBufferPointer, utf8Flag: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if utf8Flag { return String(decoding: bytes, as: UTF8.self) }  // repaired for display and lookups
        var scalars = String.UnicodeScalarView()
        for b in bytes {
            scalars.append(b < 0x80 ? Unicode.Scalar(b) : cp437High[Int(b - 0x80)])
        }
        return String(scalars)
    }

    /// Code page 437, bytes 0x80 to 0xFF.
    private static let cp437High: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}"
            .unicodeScalars)
}
