// How far a download has come, as the browser app shows it on the button and says it: the bytes as they are, and
// "waiting for the library" when none came for a while, never a percentage that a stalled or mis-sized download
// would make up ("100%" for half a minute before the end).

/// A download on its way: what has arrived, of how much when the library said, and whether it is waiting.
public struct DownloadReport: PatronOutcome, Sendable {
    public let title: String
    public let bytes: Int64
    /// The size the library announced, if it did.
    public let total: Int64?
    /// No byte came for a few seconds.
    public let waiting: Bool

    public init(title: String, bytes: Int64, total: Int64?, waiting: Bool) {
        self.title = title
        self.bytes = bytes
        self.total = total
        self.waiting = waiting
    }

    public var sentence: String {
        "Downloading \(quoted(title)): \(amount)" + (waiting ? ", waiting for the library." : ".")
    }

    /// The few words on the download's button while it runs: "Downloading… 1.2 MB of 3.4 MB".
    public var label: String { (waiting ? "Waiting for the library… " : "Downloading… ") + amount }

    /// "1.2 MB of 3.4 MB", or "1.2 MB so far" when the size is unknown or already passed.
    private var amount: String {
        if let total, total > 0, bytes < total { return "\(Self.size(bytes)) of \(Self.size(total))" }
        return "\(Self.size(bytes)) so far"
    }

    /// A size as a patron reads it: "512 bytes", "40 KB", "3.4 MB".
    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return Plural.count(Int(bytes), "byte") }
        if bytes < 1024 * 1024 { return "\((bytes + 512) / 1024) KB" }
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
