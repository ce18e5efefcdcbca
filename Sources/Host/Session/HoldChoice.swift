import Foundation

/// Which of a title's holds a cancel means: a title can have its own hold (an e-book or audiobook hold) and holds on
/// physical copies at branches at once, and a cancel never guesses between them (issue 33).
public enum HoldChoice: Sendable, Equatable {
    /// None named: the title's only hold; with two or more, the cancel is refused with the choices.
    case unnamed
    /// The title's own hold (`shelf cancel-hold --digital`; the API's `"branch": ""`).
    case own
    /// The hold on a physical copy at this branch (its name in any case).
    case branch(String)

    /// The API's `branch` field: absent names no hold, "" the title's own, a name that branch's.
    public init(apiBranch: String?) {
        switch apiBranch {
        case nil: self = .unnamed
        case ""?: self = .own
        case let name?: self = .branch(name)
        }
    }
}
