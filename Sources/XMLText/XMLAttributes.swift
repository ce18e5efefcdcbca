import CXML2
import Glibc

/// An element's attributes as libxml2's SAX2 parser hands them over (name, prefix, URI, value start, value end),
/// read in place. Attributes a DTD would default are left out, as a tree leaves them out. Inlinable: the readers
/// that call these per element are in other modules (the catalog, the EPUB plugins).
public struct XMLAttributes {
    public let parser: xmlParserCtxtPtr
    public let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    public let count: Int

    @inlinable
    public init(parser: xmlParserCtxtPtr, pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) {
        self.parser = parser
        self.pointer = pointer
        self.count = count
    }

    @inlinable
    public func name(at index: Int) -> XMLName {
        XMLName(pointer![5 * index], uri: pointer![5 * index + 2], parser: parser)
    }

    @inlinable
    public func namespace(at index: Int) -> UnsafePointer<xmlChar>? { pointer![5 * index + 2] }

    @inlinable
    func matches(_ index: Int, _ name: XMLName, loose: Bool) -> Bool {
        pointer![5 * index] == name.pointer || (loose && self.name(at: index) == name)
    }

    /// The first attribute called `name`, in any namespace, as written (how the catalog's former tree read them).
    @inlinable
    public func index(of name: XMLName) -> Int? {
        guard pointer != nil else { return nil }
        let loose = parser.pointee.nsWellFormed == 0
        for i in 0..<count where matches(i, name, loose: loose) { return i }
        return nil
    }

    /// The attribute called `name` as libxml2's tree reads it by name (the EPUB plugins' `attr`): the one in no
    /// namespace first, else the first in any namespace.
    @inlinable
    public func treeIndex(of name: XMLName) -> Int? {
        guard pointer != nil else { return nil }
        let loose = parser.pointee.nsWellFormed == 0
        var fallback: Int?
        for i in 0..<count where matches(i, name, loose: loose) {
            if namespace(at: i) == nil { return i }
            if fallback == nil { fallback = i }
        }
        return fallback
    }

    /// The value at `index` as a tree reads it, handed to `body` as UTF-8.
    @inlinable
    public func withValue<T>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let start = pointer![5 * index + 3]!, end = pointer![5 * index + 4]!
        let raw = UnsafeBufferPointer(start: start, count: end - start)
        // Only a value libxml2 had to copy can hold a reference (it writes `&amp;` as `&#38;` for the tree to read).
        guard raw.contains(UInt8(ascii: "&")) else { return body(raw) }
        return XMLReferences.decode(raw).withUnsafeBufferPointer(body)
    }

    /// The value of the first attribute called `name` (`index(of:)`), handed to `body` as UTF-8.
    @inlinable
    public func withValue<T>(_ name: XMLName, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        index(of: name).map { withValue(at: $0, body) }
    }

    @inlinable
    public func string(at index: Int) -> String { withValue(at: index) { String(decoding: $0, as: UTF8.self) } }

    /// The value of the first attribute called `name`, in any namespace (`index(of:)`).
    @inlinable
    public func first(_ name: XMLName) -> String? { index(of: name).map(string(at:)) }

    /// The value of the attribute called `name` as a tree reads it (`treeIndex(of:)`).
    @inlinable
    public func string(_ name: XMLName) -> String? { treeIndex(of: name).map(string(at:)) }

    /// The value of the attribute called `name` in namespace `uri`, as a tree's `attr(_:ns:)` reads it.
    @inlinable
    public func string(_ name: XMLName, namespace uri: String) -> String? {
        guard pointer != nil else { return nil }
        let loose = parser.pointee.nsWellFormed == 0
        for i in 0..<count where matches(i, name, loose: loose) {
            if let ns = namespace(at: i), strcmp(UnsafeRawPointer(ns).assumingMemoryBound(to: CChar.self), uri) == 0 {
                return string(at: i)
            }
        }
        return nil
    }
}

/// An element or attribute name as libxml2 interns it: one address per name per parse.
public struct XMLName: Equatable {
    public let pointer: UnsafePointer<xmlChar>?

    @inlinable
    public init(pointer: UnsafePointer<xmlChar>?) { self.pointer = pointer }

    /// The name a tree matches: a name with a prefix libxml2 could not resolve (`simplified:pwid` in a fragment) is
    /// read by its last part.
    @inlinable
    public init(_ localname: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, parser: xmlParserCtxtPtr) {
        guard uri == nil, parser.pointee.nsWellFormed == 0, let localname,
            let colon = strrchr(UnsafeRawPointer(localname).assumingMemoryBound(to: CChar.self), 0x3A)
        else {
            pointer = localname
            return
        }
        pointer = xmlDictLookup(
            parser.pointee.dict, UnsafeRawPointer(colon + 1).assumingMemoryBound(to: xmlChar.self), -1)
    }

    @inlinable
    public static func == (a: XMLName, b: XMLName) -> Bool { a.pointer == b.pointer }

    public var string: String { pointer.map { String(cString: $0) } ?? "" }
}

/// A parse's name table, for handlers to intern the names they look for before the parse begins.
public struct XMLNames {
    public let dict: xmlDictPtr?

    public func intern(_ name: String) -> XMLName {
        XMLName(
            pointer: name.withCString {
                xmlDictLookup(dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1)
            })
    }
}
