import Foundation

/// One way to get a book: the link to follow and the chain of media types it leads through, e.g.
/// borrow → OPDS entry → Adobe ACSM → EPUB. The last type is what a plugin would have to open.
public struct AcquisitionPath: Codable, Equatable, Sendable {
    public var rel: String
    public var href: String
    public var types: [String]

    public init(rel: String, href: String, types: [String]) {
        self.rel = rel
        self.href = href
        self.types = types
    }

    public var endType: String { types.last ?? "" }

    /// Every path through a link's indirect acquisitions (a tree), one per leaf.
    package static func paths(of link: CatalogLink) -> [AcquisitionPath] {
        let start = link.type ?? ""
        var result: [AcquisitionPath] = []
        func walk(_ nodes: [IndirectAcquisition], _ prefix: [String], depth: Int) {
            for node in nodes {
                let chain = prefix + [node.type]
                if node.children.isEmpty || depth > 16 {
                    result.append(AcquisitionPath(rel: link.rel ?? "", href: link.href, types: chain))
                } else {
                    walk(node.children, chain, depth: depth + 1)
                }
            }
        }
        let indirect = link.indirect ?? []
        if indirect.isEmpty {
            result.append(AcquisitionPath(rel: link.rel ?? "", href: link.href, types: start.isEmpty ? [] : [start]))
        } else {
            walk(indirect, start.isEmpty ? [] : [start], depth: 0)
        }
        return result
    }

    /// Whether a plugin that opens `openable` (base media types) can read what this path ends in.
    /// Steps shelf performs itself (OPDS entries, bearer-token documents) may come anywhere in the chain;
    /// any other intermediate type (a DRM licence) needs a tool shelf does not have.
    public func isSupported(by openable: Set<String>) -> Bool {
        guard let last = types.last.map(MediaTypes.base), !last.isEmpty else { return false }
        guard openable.contains(last) else { return false }
        for step in types.dropLast() {
            let b = MediaTypes.base(step)
            if MediaTypes.isOPDSEntry(step) || b == MediaTypes.bearerToken || b == "application/atom+xml" { continue }
            if openable.contains(b) { continue }
            return false
        }
        return true
    }

    /// The DRM or vendor scheme in the way, named for the patron.
    public var protection: String? {
        types.lazy.compactMap(MediaTypes.protectionName).first
    }
}
