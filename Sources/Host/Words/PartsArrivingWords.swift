// What the player says of an audiobook whose parts are still arriving (a loan listened to as it downloads): how many
// parts are here, the bytes of the rest as far as they are known, and whether the library keeps them waiting; never
// a made-up percentage (as a download's progress, DownloadReport).

/// How far the parts of a book being listened to have arrived.
public struct PartsArriving: PatronOutcome, Sendable, Equatable {
    /// Parts whole on this computer, of `count`.
    public let here: Int
    public let count: Int
    /// Bytes of the parts still arriving, and their size when the library announced every one.
    public let bytes: Int64
    public let total: Int64?
    /// No byte came for a few seconds.
    public let waiting: Bool
    /// The download is no longer running (shelf was stopped): the rest does not arrive by itself.
    public let stopped: Bool
    /// The loan whose download brings the parts (nil for a book that is not a loan): what a stopped download's hint
    /// names, so that the patron can type it as it stands.
    public let loan: Loan?

    /// A loan as a command names it: the title's id at its library, and the library's account when the patron has
    /// several (`Circulation.accountToName`), else nil.
    public struct Loan: Sendable, Equatable {
        public let entryID: String
        public let account: String?

        public init(entryID: String, account: String?) { (self.entryID, self.account) = (entryID, account) }
    }

    public init(
        here: Int, count: Int, bytes: Int64, total: Int64?, waiting: Bool, stopped: Bool, loan: Loan? = nil
    ) {
        (self.here, self.count, self.bytes, self.total, self.waiting, self.stopped, self.loan) =
            (here, count, bytes, total, waiting, stopped, loan)
    }

    public var sentence: String {
        let parts = "Parts here: \(here) of \(count)"
        if stopped { return "\(parts); the download of the rest stopped." }
        return "\(parts); the rest is arriving: \(amount)" + (waiting ? ", waiting for the library." : ".")
    }

    public var next: NextStep? {
        // The browser's player offers its own button (Download the rest) beside these words: no hint there. A book
        // that is no loan has no command that resumes its parts by name.
        guard stopped, let loan else { return nil }
        return .resumeDownload(entryID: loan.entryID, account: loan.account)
    }

    /// The few words beside the player while parts arrive: "1 of 3 parts here, 40 KB of 160 KB arriving".
    public var label: String {
        let parts = "\(here) of \(Plural.count(count, "part")) here"
        if stopped { return "\(parts), the download stopped" }
        return "\(parts), " + (waiting ? "waiting for the library: " : "") + "\(amount) arriving"
    }

    /// "40 KB of 160 KB", or "40 KB so far" when a size is not known yet.
    private var amount: String {
        if let total, total > 0, bytes <= total {
            return "\(DownloadReport.size(bytes)) of \(DownloadReport.size(total))"
        }
        return "\(DownloadReport.size(bytes)) so far"
    }
}
