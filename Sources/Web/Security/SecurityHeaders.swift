/// The headers every answer carries. The app's pages may load only what this server serves (no other origin,
/// no inline script or style, no eval), may not be framed by another site, and never send a Referer. Book
/// resources are sandboxed with scripts off and no network access of their own; they keep our origin
/// (`allow-same-origin`) so that the reader can lay the page out and style it, and since no script of theirs ever
/// runs, all a book's page could do is load an image or a style, or frame or embed a page, from this server:
/// the book's own resources show (an interactive figure, a map in an `iframe`, `object` or `embed`, sandboxed
/// the same way), the app's pages refuse to be framed (`frame-ancestors 'none'`) and the API refuses whatever is
/// not the app's own call (`Sec-Fetch-Dest`).
public enum SecurityHeaders {
    public static let appPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "media-src 'self'",
        "font-src 'self'", "connect-src 'self'", "frame-src 'self'", "form-action 'self'", "base-uri 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    public static let bookPolicy = [
        "sandbox allow-same-origin", "default-src 'none'", "img-src 'self' data:", "style-src 'self' 'unsafe-inline'", "font-src 'self'",
        "media-src 'self'", "frame-src 'self'", "object-src 'self'", "connect-src 'none'", "form-action 'none'", "base-uri 'none'",
        "frame-ancestors 'self'",
    ].joined(separator: "; ")

    public static func headers(for access: WebRouter.Access) -> [(String, String)] {
        var headers: [(String, String)] = [
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Cache-Control", "no-store"),
        ]
        switch access {
        case .api, .page:
            headers += [("Content-Security-Policy", appPolicy), ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin")]
        case .bookResource:
            headers += [("Content-Security-Policy", bookPolicy), ("X-Frame-Options", "SAMEORIGIN")]
        }
        return headers
    }
}
