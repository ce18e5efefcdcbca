// What the reading-list commands did besides connecting through the browser (`ReadingListConnectionChange`): a
// service connected from the command line, a push with nothing to record, a book marked read and queued.

/// One outcome of `shelf lists` or `shelf finished`; `service` names are as the services call themselves.
public enum ReadingListNotice: PatronOutcome, Sendable, Equatable {
    /// `shelf lists connect`: connected without pulling; `abilities` are what it can do ("pull shelves"),
    /// `writesFile` when its pushes are a CSV file for the patron to upload.
    case connectedToPull(
        service: String, name: String, plugin: String, signedIn: Bool, abilities: [String],
        writesFile: Bool)
    /// Nothing pulled from any service yet.
    case nothingPulledYet
    /// A push with every finished book already recorded.
    case nothingToPush
    /// No service connected.
    case noneConnected
    /// A book marked read: queued for the services that record reads, or already queued for them.
    case markedRead(title: String, queued: [String], alreadyQueued: [String])

    public var sentence: String {
        switch self {
        case .connectedToPull(_, let name, let plugin, let signedIn, let abilities, let writesFile):
            let can = abilities.isEmpty ? "it can do nothing shelf uses" : "it can \(list(abilities))"
            return "Connected \(name) (\(plugin))\(signedIn ? ", signed in" : ""): \(can)."
                + (writesFile ? " Pushes write a CSV file for you to upload to \(name)." : "")
        case .nothingPulledYet: return "Nothing is on your reading lists yet."
        case .nothingToPush: return "Nothing to push: every finished book is already recorded."
        case .noneConnected: return "No reading list is connected."
        case .markedRead(let title, let queued, let already):
            let marked = "Marked \(quoted(DisplayText.oneLine(title))) read"
            var said: [String] = []
            if !queued.isEmpty { said.append("queued for \(list(queued))") }
            if !already.isEmpty { said.append("already queued for \(list(already))") }
            if said.isEmpty { return marked + "; no connected reading list records reads." }
            return marked + ": " + said.joined(separator: "; ") + "."
        }
    }

    public var next: NextStep? {
        switch self {
        case .connectedToPull(let service, _, _, _, _, _):
            return NextStep(
                terminal: "Read its lists with `shelf lists pull \(service)`.",
                browser: "Its lists show on the Reading lists page.")
        case .nothingPulledYet:
            return NextStep(
                terminal: "`shelf lists pull` reads them.", browser: "Connect a service on the Reading lists page.")
        case .noneConnected:
            return NextStep(
                terminal: "Connect one with `shelf lists connect SERVICE`.",
                browser: "Connect one on the Reading lists page.")
        case .markedRead(_, let queued, _) where !queued.isEmpty:
            return NextStep(terminal: "`shelf lists push` records it.", browser: nil)
        default: return nil
        }
    }
}

/// "A", "A and B", "A, B and C".
private func list(_ items: [String]) -> String {
    guard let last = items.last, items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
}
