import Foundation

// What `shelf lists pull` and `shelf lists push` say of each service: what a pull read (or why it read nothing), each
// finished book pushed, and the import file a service without a write path is given instead.

extension ReadingListPullOutcome: PatronOutcome {
    public var sentence: String {
        if let error { return "Could not pull \(service): \(clause(error))." }
        let counts = shelves.map { "\($0.name) \($0.count.map(String.init) ?? "?")" }.joined(separator: ", ")
        return "Pulled \(service): \(Plural.count(entries, "book"))\(counts.isEmpty ? "" : " (\(counts))")"
            + (newWishes > 0 ? "; \(newWishes) added to the wish list" : "")
            + (skippedWithoutTitle == 1 ? "; 1 row skipped: it has no title" : "")
            + (skippedWithoutTitle > 1 ? "; \(skippedWithoutTitle) rows skipped: they have no title" : "") + "."
    }
}

extension ReadingListPushReport: PatronOutcome {
    public var sentence: String {
        let what: String
        switch outcome {
        case "added": what = "was recorded on \(shelf)"
        case "unchanged": what = "was already on \(shelf)"
        case "exported": what = "was written to the import file"
        default: what = "was not recorded: \(clause(message ?? "no reason given"))"
        }
        return "For \(service), \(quoted(DisplayText.oneLine(title))) \(what)."
    }
}

/// A file in a service's import format, written because shelf has no way to write to the service itself.
public struct ReadingListImportFile: PatronOutcome, Sendable, Equatable {
    public let file: String
    /// Where the service takes the file, when its connector says.
    public let uploadURL: String?
    public let serviceName: String

    public init(file: String, uploadURL: String?, serviceName: String) {
        self.file = file
        self.uploadURL = uploadURL
        self.serviceName = serviceName
    }

    public var sentence: String {
        "Wrote the import file \(file): \(serviceName) has no write path shelf can use."
    }

    public var next: NextStep? { NextStep("Upload it " + (uploadURL.map { "at \($0)." } ?? "to \(serviceName).")) }
}

/// An error's words inside a sentence: without the full stop the sentence adds itself.
private func clause(_ reason: String) -> String {
    var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
    while text.hasSuffix(".") { text.removeLast() }
    return text
}
