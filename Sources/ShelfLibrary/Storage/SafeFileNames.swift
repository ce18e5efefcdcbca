import Foundation

/// File names shelf chooses itself: a server never names a file on disk.
package enum ShelfDirectoriesSafeName {
    package static func component(_ text: String) -> String {
        let safe = String(
            text.unicodeScalars.map {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") ? Character($0) : "_"
            }.prefix(64))
        return safe.isEmpty || safe.allSatisfy({ $0 == "_" }) ? "local" : safe
    }

    /// A stable name from the entry's identifier: a readable tail plus a hash, never a path.
    package static func fileName(for id: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let tail = component(String(id.split(whereSeparator: { "/:?=&#".contains($0) }).last ?? "book"))
        return "\(tail.prefix(40))-\(String(hash, radix: 16))"
    }
}
