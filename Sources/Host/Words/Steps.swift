// The steps outcomes share, each named once for both faces (see `NextStep`).

extension NextStep {
    /// A loan or an open-access title is the patron's to fetch.
    public static func download(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Download it with `shelf download \(entry.id)`.", browser: "Download it from My Books.")
    }

    /// A copy is free: borrow it.
    public static func borrow(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Borrow it with `shelf borrow \(entry.id)`.", browser: "Get it instead.")
    }

    /// The patron's hold is ready yet the library lent nothing: ask again.
    public static func borrowAgain(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "Try again: `shelf borrow \(entry.id)`.", browser: "Your hold is kept: try Get again.")
    }

    /// No copy is free: join the waiting list.
    public static func reserve(_ entry: CatalogEntry) -> NextStep {
        NextStep(terminal: "To join the waiting list: `shelf reserve \(entry.id)`.", browser: "You can reserve it.")
    }
}
