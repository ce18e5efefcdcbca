// What Share says once the passage is on the clipboard: `shelf share --copy` prints it, and the browser's reader
// shows and says it (the share answer's `said`) when the browser's clipboard took the text.

/// The passage `shared` was put on the clipboard.
public struct PassageCopied: PatronOutcome, Sendable {
    public let page: Int
    public let link: Bool

    public init(_ shared: SharedPassage) { (page, link) = (shared.page.number, shared.link != nil) }

    public var sentence: String {
        "Copied to the clipboard: the passage from page \(page), with the title, the author\(link ? " and a link" : "")."
    }
}
