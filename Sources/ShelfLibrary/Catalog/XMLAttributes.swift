import CXML2
import XMLText

/// An element's attributes as libxml2's SAX2 parser hands them over (name, prefix, URI, value start, value end),
/// read in place. Attributes a DTD would default are left out, as the former tree left them out.
struct XMLAttributes {
    let parser: xmlParserCtxtPtr
    let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    func name(at index: Int) -> XMLName { XMLName(pointer![5 * index], uri: pointer![5 * index + 2], parser: parser) }

    func namespace(at index: Int) -> UnsafePointer<xmlChar>? { pointer![5 * index + 2] }

    /// The first attribute called `name`, in any namespace.
    @inline(__always)
    func index(of name: XMLName) -> Int? {
        guard let pointer else { return nil }
        let loose = parser.pointee.nsWellFormed == 0
        for i in 0..<count {
            if pointer[5 * i] == name.pointer || (loose && self.name(at: i) == name) { return i }
        }
        return nil
    }

    /// The value at `index` as the former tree read it, handed to `body` as UTF-8.
    @inline(__always)
    func withValue<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let start = pointer![5 * index + 3]!, end = pointer![5 * index + 4]!
        let raw = UnsafeBufferPointer(start: start, count: end - start)
        // Only a value libxml2 had to copy can hold a reference (it writes `&amp;` as `&#38;` for the tree to read).
        guard raw.contains(UInt8(ascii: "&")) else { return body(raw) }
        return XMLReferences.decode(raw).withUnsafeBufferPointer(body)
    }

    func withValue<T>(_ name: XMLName, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        index(of: name).map { withValue(at: $0, body) }
    }

    func string(at index: Int) -> String { withValue(at: index) { String(decoding: $0, as: UTF8.self) } }

    func string(_ name: XMLName) -> String? { index(of: name).map(string(at:)) }
}
