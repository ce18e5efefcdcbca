/// Character and entity references left in attribute values, resolved as libxml2's tree builder resolves
/// them: character references and the five predefined entities become their characters; any other entity
/// becomes nothing, as the tree's expansion of an undeclared entity does (neither the EPUB plugins' stream
/// nor the catalog's lets a document with entity declarations through).
///
/// Shared by the host's catalog reader and the EPUB plugins, which link no code of each other's.
public enum XMLReferences {
    public static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "&"), let semicolon = raw[(i + 1)...].firstIndex(of: UInt8(ascii: ";")) else {
                out.append(raw[i])
                i += 1
                continue
            }
            let name = raw[(i + 1)..<semicolon]
            if name.first == UInt8(ascii: "#") {
                let hex = name.dropFirst().first.map { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") } ?? false
                let digits = String(decoding: name.dropFirst(hex ? 2 : 1), as: UTF8.self)
                if let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                }
            } else {
                switch String(decoding: name, as: UTF8.self) {
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "amp": out.append(UInt8(ascii: "&"))
                case "apos": out.append(UInt8(ascii: "'"))
                case "quot": out.append(UInt8(ascii: "\""))
                default: break
                }
            }
            i = semicolon + 1
        }
        return out
    }
}
