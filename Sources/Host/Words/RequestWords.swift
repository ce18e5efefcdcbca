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
    /// The body is larger than the server takes (`limit` bytes).
    case tooLarge(limit: Int)
    /// A query value that must be a whole number in a range is not.
    case notANumber(name: String, given: String, range: ClosedRange<Int>)
    /// A query value that must be one of a few words is none of them (`format=pdf`: all, ebook or audiobook).
    case notOneOf(name: String, given: String, choices: [String])
    /// A catalog facet that is not `NAME=VALUE`.
    case notAFacet(given: String)
    /// A list's cursor this server never gave.
    case unknownCursor(String)
    /// An id that must be a number is not: `of` names the thing ("bookmark": "A bookmark’s id is a number.").
    case idNotANumber(of: String)
    /// Nothing is at this address.
    case nothingAt(path: String)
    /// The address takes other methods.
    case methodNotAllowed(path: String, method: String)
    /// No book on the shelf has this id.
    case notOnShelf(id: String)
    /// shelf failed in a way it has no words for; `detail` is the failure as the system gave it.
    case failed(detail: String)
}

extension RequestProblem: PatronOutcome {
    public var sentence: String {
        switch self {
        case .missingQuery(_, _, let question): return question
        case .missingMember(let name): return "“\(name)” is missing from the request."
        case .bodyNotJSON: return "The request body is not a JSON object."
        case .tooLarge(let limit):
            return "The request is too large: this server takes at most \(DownloadReport.size(Int64(limit)))."
        case .notANumber(let name, let given, let range):
            return "In the address, \(name)=\(given) is not a number from \(range.lowerBound) to \(range.upperBound)."
        case .notOneOf(let name, let given, let choices):
            let listed =
                choices.count > 1
                ? choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "") : choices.joined()
            return "In the address, \(name)=\(given) is not \(listed)."
        case .notAFacet(let given): return "In the address, facet=\(given) is not NAME=VALUE."
        case .unknownCursor(let cursor): return "The cursor \(cursor) is not one this server gave."
        case .idNotANumber(let what): return "A \(what)’s id is a number."
        case .nothingAt(let path): return "Nothing is at \(path)."
        case .methodNotAllowed(let path, let method): return "\(path) does not take \(method)."
        case .notOnShelf(let id): return "No book with id \(id) is on the shelf."
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
        case .notAFacet: return NextStep(terminal: nil, browser: "For example facet=Sort by=Title.")
        case .unknownCursor: return NextStep(terminal: nil, browser: "Start again without a cursor.")
        case .notOnShelf: return NextStep(terminal: nil, browser: "My Books lists what is on it.")
        case .failed: return NextStep(terminal: nil, browser: "Reload the page; if it happens again, see shelf's log.")
        default: return nil
        }
    }
}

extension RequestProblem {
    /// A catalog title's details were asked for without naming it: `?id=ID`.
    public static let whichTitle = RequestProblem.missingQuery(name: "id", value: "ID", question: "Which title?")
}
