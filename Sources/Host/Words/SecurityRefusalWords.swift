// What the browser app's server says when it refuses a request for who sent it rather than what it asked: another
// address, another site, a browser not let in, a launch key or link used up, a change to a book's read-only origin.
// The server sends these as problem documents (`WebError`) or on the small pages before the app (`/open`,
// `/login`); it writes no sentence of its own. Only a terminal lets a browser in (`shelf serve --open` prints a key,
// good once), so where the way on is that terminal, the browser's hint says so.

/// Why the browser app's server refused a request before any of the app's routes answered it.
public enum SecurityRefusal: Sendable, Equatable {
    /// The request names a host that is not one of the server's own (DNS rebinding); `home` is the app's address,
    /// when the server is listening.
    case foreignHost(home: String?)
    /// The browser says the request comes from another site (`Sec-Fetch-Site`), or a sign-in form from another origin.
    case otherSite
    /// The request's Origin is not one of the server's.
    case foreignOrigin(origin: String)
    /// The browser sent the request for an image, a frame, a style sheet or a form, not for the app's own script.
    case notTheAppsCall
    /// A change came without the Origin a browser sends with it.
    case changeWithoutOrigin
    /// The browser has no session: it was not let in with a launch key or the password.
    case noSession
    /// A launch key was asked for without the running server's secret.
    case launchKeyWithoutSecret
    /// The launch link was used already (a key lets one browser in, once).
    case linkUsed
    /// The password given at the sign-in page is not the server's.
    case wrongPassword
    /// The request to open a file (`shelf serve --open FILE`) is not one this server holds (it was restarted).
    case openRequestExpired
    /// A book's own origin was asked to change something.
    case bookOriginReadOnly(method: String)
}

extension SecurityRefusal: PatronOutcome {
    public var sentence: String {
        switch self {
        case .foreignHost: return "This server answers only to its own address."
        case .otherSite, .foreignOrigin: return "Requests from other sites are refused."
        case .notTheAppsCall: return "The API answers the app’s own calls only."
        case .changeWithoutOrigin: return "A change needs the page’s Origin."
        case .noSession: return "This browser has not been let in."
        case .launchKeyWithoutSecret: return "Only shelf itself asks for a launch key."
        case .linkUsed: return "This link has expired: each link lets a browser in once."
        case .wrongPassword: return "That is not this server’s password."
        case .openRequestExpired: return "This request to open a book has expired."
        case .bookOriginReadOnly(let method): return "A book’s origin is read only: it does not take \(method)."
        }
    }

    public var next: NextStep? {
        switch self {
        case .foreignHost(let home):
            return home.map { NextStep(terminal: nil, browser: "Open \($0) instead.") }
        case .foreignOrigin(let origin): return NextStep(terminal: nil, browser: "Origin \(origin) is not this server.")
        case .changeWithoutOrigin:
            return NextStep(
                terminal: nil, browser: "Browsers send it; other clients must send Origin: http://HOST:PORT.")
        // The way in is the terminal the server runs from: a new key, printed and opened by `shelf serve --open`.
        case .noSession, .linkUsed:
            return NextStep(
                terminal: "Run `shelf serve --open` to open shelf in your browser with a new key.",
                browser:
                    "Run shelf serve --open in a terminal: it opens shelf here with a key that lets this browser in.")
        case .openRequestExpired:
            return NextStep(
                terminal: "Run `shelf serve --open FILE` again.",
                browser: "Run shelf serve --open FILE in a terminal again: it opens the book here.")
        default: return nil
        }
    }
}
