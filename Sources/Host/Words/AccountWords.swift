// What a change to the patron's library accounts did, in the patron's words: `shelf account add|remove|use`,
// `shelf login`, `shelf logout`, and the browser app's Accounts page.

extension AccountOutcome: PatronOutcome {
    public var sentence: String {
        switch self {
        case .added(let account, _): return "Added \(account.title)."
        case .removed(let account, _, _): return "Removed \(account.title) and its stored sign-in."
        case .using(let account): return "\(account.title) is now the current library."
        case .signedIn(let account, let keptIn):
            return "Signed in to \(account.title)." + (keptIn.map { " Your sign-in is kept in \($0)." } ?? "")
        case .signedOut(let account): return "Signed out of \(account.title)."
        case .noSignInNeeded(let account): return "\(account.title) needs no sign-in."
        }
    }

    public var next: NextStep? {
        switch self {
        case .added(let account, let inUse):
            // Only a command names an account by its id; the app names it by its title.
            return NextStep(
                terminal: "Commands name it “\(account.id)”"
                    + (inUse ? " and use it when no --account is given." : ": --account \(account.id) chooses it."),
                browser: nil)
        case .removed(let account, let loans, let holds) where loans + holds > 0:
            let what = [loans > 0 ? Plural.count(loans, "loan") : nil, holds > 0 ? Plural.count(holds, "hold") : nil]
                .compactMap { $0 }.joined(separator: " and ")
            let (stay, them) = loans + holds == 1 ? ("stays", "it") : ("stay", "them")
            return NextStep(
                terminal: "Your \(what) at \(account.title) \(stay) with the library; to see \(them) here again: "
                    + "`shelf account add \(account.catalogURL)`, `shelf login`, `shelf sync`.",
                browser: "Your \(what) at \(account.title) \(stay) with the library; add it again to see \(them) here.")
        default:
            return nil
        }
    }
}
