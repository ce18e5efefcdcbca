/// The headers every answer carries. The app's pages may load only what this server serves (and frame the books'
/// origins), no inline script or style, no eval, may not be framed by another site, and never send a Referer.
/// Book resources under `/book/TOKEN` (the reader's pages with `--listen`, covers) are sandboxed into an opaque
/// origin: no storage, no cookie, an Origin the API refuses; the only script that runs is the reader's (its
/// nonce); the book's own resources may be framed or embedded (an interactive figure, a map), the app's pages
/// refuse to be framed (`frame-ancestors 'none'`) and the API refuses whatever is not the app's own call
/// (`Sec-Fetch-Dest`). A book's own origin has headers of its own (`bookOriginPolicy`).
public enum SecurityHeaders {
    public static let appPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "media-src 'self'",
        "font-src 'self'", "connect-src 'self'", "frame-src 'self' http://*.localhost:*", "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'"
    ].joined(separator: "; ")

    /// The nonce of the reader's script in book pages served by `BookResources` (new at each launch: a book's
    /// markup, written before, cannot know it).
    static let launchNonce = RandomToken.make()

    public static let bookPolicy = [
        "sandbox allow-scripts", "default-src 'none'", "script-src 'nonce-\(launchNonce)' 'strict-dynamic'",
        "img-src 'self' data:",
        "style-src 'self' 'unsafe-inline'", "font-src 'self'", "media-src 'self'", "frame-src 'self'",
        "object-src 'self'",
        "connect-src 'none'", "form-action 'none'", "base-uri 'none'", "frame-ancestors 'self'"
    ].joined(separator: "; ")

    /// A book's own origin (`BookOrigins`): its pages may load, frame and fetch what that origin serves (the book's
    /// own resources) and nothing from elsewhere; only the app may frame them; forms post to the book only. Scripts:
    /// the reader's (by its nonce, and what it imports), and the book's own only when the patron allowed them and
    /// the page is declared scripted. No `sandbox` here: the origin is the book's alone, and the app's frame element
    /// sets the sandbox (no top navigation, no pop-ups).
    public static func bookOriginPolicy(nonce: String, bookScripts: Bool, appOrigins: Set<String>) -> String {
        [
            "default-src 'self' data: blob:",
            bookScripts ? "script-src 'self' 'unsafe-inline'" : "script-src 'nonce-\(nonce)' 'strict-dynamic'",
            "style-src 'self' 'unsafe-inline' data:", "img-src 'self' data: blob:", "font-src 'self' data:",
            "media-src 'self' data: blob:", "connect-src 'self'", "frame-src 'self'", "object-src 'self'",
            "form-action 'self'", "base-uri 'self'",
            "frame-ancestors 'self' " + appOrigins.sorted().joined(separator: " ")
        ].joined(separator: "; ")
    }

    /// `cache`: the reader's scripts, under a folder named by their content, kept by the browser.
    static func bookOriginHeaders(nonce: String, bookScripts: Bool, appOrigins: Set<String>, cache: Bool = false) -> [(
        String, String
    )] {
        [
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Cache-Control", cache ? "max-age=31536000, immutable" : "no-store"),
            (
                "Content-Security-Policy",
                bookOriginPolicy(nonce: nonce, bookScripts: bookScripts, appOrigins: appOrigins)
            )
        ]
    }

    public static func headers(for access: WebRouter.Access) -> [(String, String)] {
        var headers: [(String, String)] = [
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Cache-Control", "no-store")
        ]
        switch access {
        case .api, .page:
            headers += [
                ("Content-Security-Policy", appPolicy), ("X-Frame-Options", "DENY"),
                ("Cross-Origin-Opener-Policy", "same-origin")
            ]
        case .bookResource:
            headers += [("Content-Security-Policy", bookPolicy), ("X-Frame-Options", "SAMEORIGIN")]
        }
        return headers
    }
}
