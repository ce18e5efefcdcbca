import Foundation

/// A chapter: a TOC entry placed on the timeline (from its href's track and `#t=` fragment).
public struct Chapter: Sendable, Equatable {
    public let index: Int
    public let title: String
    public let depth: Int
    public let track: Int
    /// Seconds into the track, as the TOC says.
    public let offset: Double
    public let href: String

    package init(index: Int, title: String, depth: Int, track: Int, offset: Double, href: String) {
        self.index = index
        self.title = title
        self.depth = depth
        self.track = track
        self.offset = offset
        self.href = href
    }

    public static func stripFragment(_ href: String) -> String {
        href.firstIndex(of: "#").map { String(href[..<$0]) } ?? href
    }
}
