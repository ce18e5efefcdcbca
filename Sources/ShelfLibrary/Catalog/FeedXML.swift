import CXML2
import Foundation
import XMLText

/// The rules a catalog document from the network is read under (`XMLStream`): no entity declared, 16 MB, 200 deep,
/// 400,000 elements, and white space as libxml2's tree kept it under XML_PARSE_NOBLANKS (what the catalog's former
/// tree read).
enum FeedXML {
    static let maxDocumentSize = 16 << 20
    static let maxDepth = 200
    static let maxElements = 400_000

    static let rules = XMLStream.Rules(
        options: Int32(
            XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue
                | XML_PARSE_NOBLANKS.rawValue),
        documentName: "feed.xml", maxDocumentSize: maxDocumentSize, maxDepth: maxDepth, maxElements: maxElements,
        subset: .noEntities)

    /// Streams `data` through `handler`, or throws an `XMLStream.Failure` saying in words why it is not usable.
    static func parse(_ data: Data, _ handler: XMLStreamHandler) throws {
        try XMLStream.parse(data, rules: rules, handler)
    }
}
