// What a sync of one account found, in the patron's words (`shelf sync`).

extension SyncPipeline.Outcome: PatronOutcome {
    public var sentence: String {
        let ready = holds.filter(\.isReady).count
        return "Synced \(account.title): \(Plural.count(loans.count, "loan")), " + Plural.count(holds.count, "hold")
            + (ready > 0 ? " (\(ready) ready to borrow)" : "") + "."
    }
}
