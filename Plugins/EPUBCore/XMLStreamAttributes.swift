import CXML2
import Glibc
import XMLText

/// An element's attributes as libxml2's SAX2 parser hands them over (local name, prefix, URI, value
/// start, value end), read in place. Attributes a DTD would default are left out, as the tree leaves
/// them out.
struct XMLStreamAttributes {
    let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the attribute called `name` (an interned name), read as the tree's `attr` reads
    /// it: the one in no namespace first, else the first in any namespace.
    func string(_ name: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        var fallback: Int?
        for i in 0..<count where pointer[5 * i] == name {
            if pointer[5 * i + 2] == nil { return string(at: i) }
            if fallback == nil { fallback = i }
        }
        return fallback.map(string(at:))
    }

    /// The value of the attribute called `name` in namespace `uri`, as the tree's `attr(_:ns:)` reads it.
    func string(_ name: UnsafePointer<xmlChar>?, namespace uri: String) -> String? {
        guard let pointer else { return nil }
        for i in 0..<count where pointer[5 * i] == name {
            if let ns = pointer[5 * i + 2], strcmp(UnsafeRawPointer(ns).assumingMemoryBound(to: CChar.self), uri) == 0 {
                return string(at: i)
            }
        }
        return nil
    }

    /// Every attribute in the order written, as the tree's `attributes` lists them.
    func all(namespaces: inout [UnsafeRawPointer: String]) -> [XAttribute] {
        guard let pointer, count > 0 else { return [] }
        var out: [XAttribute] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            var ns: String?
            if let uri = pointer[5 * i + 2] {
                if let known = namespaces[UnsafeRawPointer(uri)] {
                    ns = known
                } else {
                    ns = String(cString: uri)
                    namespaces[UnsafeRawPointer(uri)] = ns
                }
            }
            out.append(XAttribute(name: String(cString: pointer[5 * i]!), ns: ns, value: string(at: i)))
        }
        return out
    }

    /// The value at `index` as the tree reads it.
    func string(at index: Int) -> String {
        let start = pointer![5 * index + 3]!, end = pointer![5 * index + 4]!
        let raw = UnsafeBufferPointer(start: start, count: end - start)
        // Only a value libxml2 had to copy can hold a reference (it writes `&amp;` as `&#38;` for the
        // tree to read).
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: XMLReferences.decode(raw), as: UTF8.self)
    }
}
