import CXML2
import Foundation

/// format.h: "html" output is a complete XHTML document. Read by libxml2 as XML, strictly (no recovery,
/// no network): well-formed, its root `html` in the XHTML namespace.
enum XHTMLCheck {
    static let namespace = "http://www.w3.org/1999/xhtml"

    /// nil when `data` is such a document, else what is wrong, with the line.
    static func problem(_ data: Data) -> String? {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlResetLastError()
        let document = data.withUnsafeBytes { raw in
            xmlReadMemory(
                raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: raw.count), "render.xhtml",
                "UTF-8", options)
        }
        guard let document else {
            guard let error = xmlGetLastError() else { return "it is not well-formed XML" }
            let message =
                error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
                ?? "not well-formed"
            return "it is not well-formed XML: line \(error.pointee.line): \(message)"
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), let name = root.pointee.name else {
            return "it has no root element"
        }
        let local = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        let href = root.pointee.ns?.pointee.href.map {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        guard local == "html", href == namespace else {
            return "its root is <\(local)> in namespace \(href ?? "none"), not <html xmlns=\"\(namespace)\">"
        }
        return nil
    }
}
