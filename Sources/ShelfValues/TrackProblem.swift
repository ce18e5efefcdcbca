import Foundation
import Readium

/// A track the audiobook plugin found missing or damaged, as its manifest says
/// (`shelf:missing`, `shelf:damaged` in the reading-order link's properties).
public struct TrackProblem: Sendable, Equatable, Encodable {
    /// 1 for the first track, as a listener counts.
    public let track: Int
    public let href: String
    public let title: String?
    /// "is missing", "is empty", "plays 0:07 of the 0:13 it declares: ...".
    public let problem: String
    public let missing: Bool

    public var name: String { Self.name(track: track, href: href, title: title) }

    /// "track 2 (Chapter two, t2.mp3)": how a listener finds the track, in words and on disk.
    public static func name(track: Int, href: String, title: String?) -> String {
        let file = (Chapter.stripFragment(href) as NSString).lastPathComponent
        return "track \(track) (\(title.map { "\($0), " } ?? "")\(file.removingPercentEncoding ?? file))"
    }

    public var sentence: String { "\(name) \(problem)" }

    public static func problem(of link: Link) -> (text: String, missing: Bool)? {
        if case .bool(true)? = link.properties?["shelf:missing"] { return ("is missing", true) }
        if case .string(let text)? = link.properties?["shelf:damaged"] { return (text, false) }
        return nil
    }

    public static func find(in manifest: Manifest) -> [TrackProblem] {
        manifest.readingOrder.enumerated().compactMap { i, link in
            problem(of: link).map {
                TrackProblem(track: i + 1, href: link.href, title: link.title, problem: $0.text, missing: $0.missing)
            }
        }
    }
}
