import CXML2
import Foundation
import XMLText

/// An XML element copied out of the parse: names with their namespace URIs, attributes, children, text.
/// For small documents read as a whole (OpenSearch descriptions); catalog feeds are read as a stream.
public struct XMLElement: Sendable {
    public var name: String
    public var namespace: String?
    public var attributes: [(name: String, namespace: String?, value: String)]
    public var children: [XMLElement]
    /// The element's own text (character data of direct children, CDATA included).
    public var text: String

    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }?.value
    }

    public func children(_ name: String, namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    public func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    public var trimmedText: String { FastText.trimmed(text) }
}

public enum XMLTree {
    /// Parses `data` into a tree, with `XMLStream`'s refusals and limits; a refusal explains itself in words.
    public static func parse(_ data: Data) throws -> XMLElement {
        let builder = XMLTreeBuilder()
        try FeedXML.parse(data, builder)
        guard let root = builder.root else { throw XMLStream.Failure(reason: "it has no root element") }
        return root
    }
}

/// Collects the stream's events into `XMLElement`s.
private final class XMLTreeBuilder: XMLStreamHandler {
    var open: [(element: XMLElement, text: [UInt8])] = []
    var root: XMLElement?

    func prepare(_ names: XMLNames) {}

    func start(_ name: XMLName, namespace: UnsafePointer<xmlChar>?, attributes: XMLAttributes, depth: Int) {
        let attributes = (0..<attributes.count).map { i in
            (
                name: attributes.name(at: i).string, namespace: attributes.namespace(at: i).map { String(cString: $0) },
                value: attributes.string(at: i)
            )
        }
        open.append(
            (
                XMLElement(
                    name: name.string, namespace: namespace.map { String(cString: $0) },
                    attributes: attributes, children: [], text: ""), []
            ))
    }

    func end(depth: Int) {
        var (element, text) = open.removeLast()
        element.text = String(decoding: text, as: UTF8.self)
        if open.isEmpty { root = element } else { open[open.count - 1].element.children.append(element) }
    }

    func wantsText(depth: Int) -> Bool { true }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        open[open.count - 1].text.append(contentsOf: bytes)
    }
}
