import Foundation

/// What kind of book an entry is, written out for people ("eBook", "Audiobook"), never an icon alone.
public enum PublicationFormat: String, Codable, Sendable, CaseIterable {
    case ebook
    case audiobook

    public var words: String { self == .ebook ? "eBook" : "Audiobook" }

    /// From `schema:additionalType` / OPDS 2 `@type`, then from the media types the acquisitions end in.
    package static func infer(type: String?, endTypes: @autoclosure () -> [String]) -> PublicationFormat {
        if let type = type?.lowercased() {
            if type.hasSuffix("/audiobook") || type == "audiobook" { return .audiobook }
            if type.hasSuffix("/ebook") || type.hasSuffix("/book") { return .ebook }
        }
        let endTypes = endTypes()
        if !endTypes.isEmpty, endTypes.allSatisfy(MediaTypes.isAudiobook) { return .audiobook }
        return .ebook
    }
}

/// The format tab a patron browses and searches in (Palace entry points).
public enum FormatTab: String, Codable, Sendable, CaseIterable {
    case all
    case ebook
    case audiobook

    public var words: String {
        switch self {
        case .all: return "All"
        case .ebook: return "eBooks"
        case .audiobook: return "Audiobooks"
        }
    }

    /// The value Palace servers use in `entrypoint=`.
    public var entryPointValue: String {
        switch self {
        case .all: return "All"
        case .ebook: return "Book"
        case .audiobook: return "Audio"
        }
    }

    public func admits(_ format: PublicationFormat) -> Bool {
        switch self {
        case .all: return true
        case .ebook: return format == .ebook
        case .audiobook: return format == .audiobook
        }
    }

    /// Recognises an entry-point facet by its href (`entrypoint=Audio`) or its title ("Audiobooks", "eBooks").
    package static func of(facetTitle: String, href: String) -> FormatTab? {
        if let value = URLComponents(string: href)?.queryItems?.first(where: { $0.name.lowercased() == "entrypoint" })?
            .value
        {
            switch value.lowercased() {
            case "all": return .all
            case "book", "ebook", "ebooks", "books": return .ebook
            case "audio", "audiobook", "audiobooks": return .audiobook
            default: break
            }
        }
        let title = facetTitle.lowercased()
        if title == "all" { return .all }
        if title.contains("audio") { return .audiobook }
        if title.contains("book") { return .ebook }
        return nil
    }
}

/// Media type comparisons, on the type itself with parameters ignored unless asked for.
public enum MediaTypes {
    public static func base(_ type: String) -> String {
        String(type.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    public static func parameters(_ type: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in type.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            result[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] =
                pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return result
    }

    package static let opdsEntry = "application/atom+xml;type=entry;profile=opds-catalog"
    package static let bearerToken = "application/vnd.librarysimplified.bearer-token+json"
    package static let adobeACSM = ["application/vnd.adobe.adept+xml", "application/vnd.adobe/adept+xml"]
    package static let lcpLicense = "application/vnd.readium.lcp.license.v1.0+json"
    package static let problem = "application/api-problem+json"

    package static func isAudiobook(_ type: String) -> Bool {
        let b = base(type)
        return b.hasPrefix("audio/") || b.contains("audiobook") || b.contains("findaway")
            || (b.hasPrefix("application/vnd.overdrive") && (parameters(type)["profile"] ?? "") == "audiobook")
    }

    package static func isOPDSEntry(_ type: String) -> Bool {
        base(type) == "application/atom+xml" && parameters(type)["type"] == "entry"
            || base(type) == "application/opds-publication+json"
    }

    /// DRM or vendor schemes shelf's plugins cannot open, named for the patron.
    package static func protectionName(_ type: String) -> String? {
        let b = base(type)
        if adobeACSM.contains(b) { return "Adobe DRM (ACSM)" }
        if b == lcpLicense || b == "application/audiobook+lcp" { return "Readium LCP" }
        if b.contains("findaway") { return "Findaway" }
        if b.contains("overdrive") { return "OverDrive" }
        if b.contains("axisnow") { return "Axis 360 (AxisNow)" }
        if b.contains("kdrm") { return "Baker & Taylor KDRM" }
        if b == "text/html" { return "streaming in a web browser" }
        return nil
    }
}
