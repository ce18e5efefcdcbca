// The heading `shelf book` puts over a title's physical copies at branches (seeds 002/003): the command that places a
// hold on one of them, for this title at this library. The browser draws a Reserve button by each branch instead.

extension TitleOffer {
    /// "Physical copies (shelf reserve ID --branch NAME):", naming `account` when the patron has several libraries.
    public func branchesHeading(account: String?) -> String {
        "Physical copies (shelf reserve \(entry.id)\(NextStep.option(account)) --branch NAME):"
    }
}
