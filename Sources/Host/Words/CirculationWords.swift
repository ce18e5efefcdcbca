// What borrowing, holds and returns did, in the patron's words: `shelf borrow`, `reserve`, `return`, `cancel-hold`
// and the browser app's Get, Reserve, Return and Cancel hold buttons all say these.

extension CirculationResult: PatronOutcome {
    public var sentence: String {
        switch self {
        case .borrowed(let outcome): return Self.sentence(outcome)
        case .reserved(let outcome): return Self.sentence(outcome)
        case .returned(let entry): return "Returned \(quoted(entry))."
        case .cancelled(let entry): return "Cancelled the hold on \(quoted(entry))."
        }
    }

    public var next: NextStep? { next(account: nil) }

    /// What to do next, with the commands naming `account` (nil when the patron has one library).
    public func next(account: String?) -> NextStep? {
        switch self {
        case .borrowed(.loaned(let entry)), .borrowed(.openAccess(let entry)), .reserved(.loaned(let entry)):
            return .download(entry, account: account)
        case .borrowed(.unavailable(let entry, let cancelled)):
            switch entry.availability.state {
            case .ready: return .borrowAgain(entry, account: account)
            case .reserved where !cancelled: return nil
            default: return .reserve(entry, account: account)
            }
        case .reserved(.availableNow(let entry)):
            return entry.availability.state == .loaned
                ? .download(entry, account: account) : .borrow(entry, account: account)
        default:
            return nil
        }
    }

    /// The sentence and `face`'s hint, whose commands name `account` (see `Circulation.accountToName`).
    public func words(for face: Face, account: String?) -> Words {
        Words(sentence, hint: next(account: account)?.said(on: face))
    }

    private static func sentence(_ outcome: BorrowOutcome) -> String {
        switch outcome {
        case .loaned(let loan):
            return "Borrowed \(quoted(loan)) (\(loan.format.words)), \(loan.availability.words)."
        case .alreadyOnLoan(let loan):
            return "\(quoted(loan)) is already on loan to you (\(loan.availability.words))."
        case .openAccess(let free):
            return "\(quoted(free)) is free to read, no loan needed."
        case .unavailable(let current, _) where current.availability.state == .ready:
            // The patron's hold is waiting, yet the library lent nothing (its answer did not say it did, and asked
            // again it still lists the hold): "no copy is free, reserve it" would be false on both counts. (A
            // library's answer shelf could not read counts as a hold placed and cancelled, yet the hold is the
            // patron's and still listed: the browser test test_reservations_show_why_a_borrow_failed.)
            return "The library did not lend \(quoted(current)) (\(current.availability.words)). Nothing was borrowed."
        case .unavailable(let current, let cancelled) where !cancelled && current.availability.state == .reserved:
            return "You are already on hold for \(quoted(current)) (\(current.availability.words))."
        case .unavailable(let current, let cancelled):
            return "No copy of \(quoted(current)) is available right now (\(current.availability.words)). "
                + "Nothing was borrowed and no hold was placed"
                + (cancelled ? " (the library placed one anyway; shelf cancelled it)." : ".")
        }
    }

    private static func sentence(_ outcome: ReserveOutcome) -> String {
        switch outcome {
        case .placed(let hold):
            // A branch's hold is for a physical copy, never "eBook" (seeds 002/003).
            if let branch = hold.branch {
                return "Reserved \(quoted(hold.entry)) as a physical copy to collect at \(branch)."
            }
            return "Reserved \(quoted(hold.entry)) (\(hold.entry.format.words)): \(hold.entry.availability.words)."
        case .alreadyReserved(let hold) where hold.branch != nil:
            return "You already have a hold on a physical copy of \(quoted(hold.entry)) at \(hold.branch ?? ""). "
                + "Nothing was reserved."
        case .alreadyReserved(let hold):
            return "You already have a hold on \(quoted(hold.entry)): \(hold.entry.availability.words)."
        case .availableNow(let current) where current.availability.state == .loaned:
            return "\(quoted(current)) is already on loan to you (\(current.availability.words)). Nothing was reserved."
        case .availableNow(let current):
            return "\(quoted(current)) is \(current.availability.words): nothing was reserved."
        case .loaned(let loan):
            return "A copy of \(quoted(loan)) was free, so the library lent it to you: \(loan.availability.words)."
        }
    }
}

/// A title inside a sentence, in curly quotes.
func quoted(_ entry: CatalogEntry) -> String { quoted(entry.title) }

/// Words inside a sentence, in curly quotes.
func quoted(_ text: String) -> String { "“\(text)”" }
