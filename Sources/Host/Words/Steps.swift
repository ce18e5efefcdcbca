// The steps outcomes share, each named once for both faces (see `NextStep`).

extension NextStep {
    /// A loan or an open-access title is the patron's to fetch.
    public static func download(_ entry: CatalogEntry, account: String? = nil) -> NextStep {
        NextStep(
            terminal: "Download it with `shelf download \(entry.id)\(option(account))`.",
            browser: "Read or Listen opens it, on its page or in My Books.")
    }

    /// A copy is free: borrow it.
    public static func borrow(_ entry: CatalogEntry, account: String? = nil) -> NextStep {
        NextStep(terminal: "Borrow it with `shelf borrow \(entry.id)\(option(account))`.", browser: "Get it instead.")
    }

    /// The patron's hold is ready yet the library lent nothing: ask again.
    public static func borrowAgain(_ entry: CatalogEntry, account: String? = nil) -> NextStep {
        NextStep(
            terminal: "Try again: `shelf borrow \(entry.id)\(option(account))`.",
            browser: "Your hold is kept: try Get again.")
    }

    /// A loan's download stopped before every part arrived: the same download, named as it stands, resumes it.
    public static func resumeDownload(entryID: String, account: String? = nil) -> NextStep {
        NextStep(terminal: "\(resumeCommand(entryID: entryID, account: account)) resumes it.", browser: nil)
    }

    /// The command that resumes a loan's download, as it is typed (`shelf downloads` names it for a stopped part).
    static func resumeCommand(entryID: String, account: String?) -> String {
        "`shelf download \(entryID)\(option(account))`"
    }

    /// No copy is free: join the waiting list.
    public static func reserve(_ entry: CatalogEntry, account: String? = nil) -> NextStep {
        NextStep(
            terminal: "To join the waiting list: `shelf reserve \(entry.id)\(option(account))`.",
            browser: "You can reserve it.")
    }

    /// ` --account NAME` when a command must name the library (the patron has several), else nothing: the command a
    /// hint names acts at the library the outcome came from, not at the one in use.
    static func option(_ account: String?) -> String { account.map { " --account \($0)" } ?? "" }
}
