// What the browser app's server says when a request itself is wrong or cannot be answered: the shape of the request
// (a parameter or a member missing, a number out of range), an address with nothing behind it, a failure inside
// shelf. The server sends these as problem documents (`WebError`); it writes no sentence of its own.

/// One way a request to the browser app's server went wrong, before or apart from what the host did with it.
public enum RequestProblem: Sendable, Equatable {
    /// A query parameter the route needs is missing: `?book=ID` (`name` "book", `value` "ID"), asked as `question`
    /// ("Which book?").
    case missingQuery(name: String, value: String, question: String)
    /// A member of the JSON body the route needs is missing.
    case missingMember(name: String)
    /// The body is not a JSON object.
    case bodyNotJSON
    /// A query value that must be a whole number in a range is not.
    case notANumber(name: String, given: String, range: ClosedRange<Int>)
    /// An id that must be a number is not: `of` names the thing ("bookmark": "A bookmark’s id is a number.").
    case idNotANumber(of: String)
    /// Nothing is at this address.
    case nothingAt(path: String)
    /// The address takes other methods.
    case methodNotAllowed(path: String, method: String)
    /// shelf failed in a way it has no words for; `detail` is the failure as the system gave it.
    case failed(detail: String)
}

extension RequestProblem: PatronOutcome {
    public var sentence: String {
        switch self {
        case .missingQuery(_, _, let question): return question
        case .missingMember(let name): return "“\(name)” is missing from the request."
        case .bodyNotJSON: return "The request body is not a JSON object."
        case .notANumber(let name, let given, let range):
            return "\(name)=\(given) is not a number from \(range.lowerBound) to \(range.upperBound)."
        case .idNotANumber(let what): return "A \(what)’s id is a number."
        case .nothingAt(let path): return "Nothing is at \(path)."
        case .methodNotAllowed(let path, let method): return "\(path) does not take \(method)."
        case .failed(let detail): return ShelfError.sentence("Something in shelf failed: \(detail)")
        }
    }

    public var next: NextStep? {
        switch self {
        case .missingQuery(let name, let value, _):
            return NextStep(terminal: nil, browser: "Add ?\(name)=\(value) to the address.")
        case .missingMember: return NextStep(terminal: nil, browser: "Send it in the JSON body.")
        case .bodyNotJSON:
            return NextStep(terminal: nil, browser: "Send a JSON object with Content-Type: application/json.")
        case .failed: return NextStep(terminal: nil, browser: "Reload the page; if it happens again, see shelf's log.")
        default: return nil
        }
    }
}
