import Foundation
import Host

/// Letting a browser in and what every page needs: a launch key (good once) or the password exchanged for a
/// session token, the session's facts, the event stream, and the OpenAPI document.
enum SessionRoutes: WebModule {
    static func install(in app: WebApp) {
        let router = app.router, guardian = app.guardian

        // The address `shelf serve --open` opens. The key is used up here; the page that answers hands the session
        // token to the app's origin and leaves for the app at once (the key leaves the address bar).
        router.add("GET", "/open", access: .page) { request in
            guard let token = guardian.admit(key: request.query["key"]) else {
                return .html(StaticFiles.notice(SecurityRefusal.linkUsed.words(for: .browser)), status: 403)
            }
            // A file to open is kept here, and the page asks for it by a token (`OpenFile`).
            let target =
                request.query["file"].flatMap {
                    $0.isEmpty ? nil : "/#/open?request=\(app.fileRequests.token(for: $0))"
                } ?? "/"
            return .html(welcome(token: token, next: target))
        }

        // A second `shelf serve --open` asks the running server for a new launch key with the secret it read from
        // `serve.json`. A browser cannot send this header to another origin without a preflight, which fails here.
        router.add("POST", "/launch-key", access: .page) { request in
            guard guardian.isSecret(request.header(RequestGuard.secretHeader)), request.header("origin") == nil else {
                throw WebError(403, SecurityRefusal.launchKeyWithoutSecret, kind: "refused-origin")
            }
            struct LaunchKey: Encodable { let key: String }
            return .json(document: LaunchKey(key: guardian.mintLaunchKey()))
        }

        // With --listen: a browser on another machine signs in with the password instead of the key.
        router.add("POST", "/login", access: .page) { request in
            guard let origin = request.header("origin"), guardian.allowedOrigins.contains(origin.lowercased()) else {
                throw WebError(403, SecurityRefusal.otherSite, kind: "refused-origin")
            }
            let form = URLComponents(string: "?" + String(decoding: request.body, as: UTF8.self))?.queryItems ?? []
            let password = form.first { $0.name == "password" }?.value?.replacingOccurrences(of: "+", with: " ")
            guard let token = guardian.admit(key: nil, password: password) else {
                return .html(
                    StaticFiles.notice(
                        SecurityRefusal.wrongPassword.words(for: .browser),
                        link: (href: "/login.html", label: "Try again")),
                    status: 403)
            }
            return .html(welcome(token: token, next: "/"))
        }

        router.add("GET", "/api/session") { _ in
            struct Session: Encodable { let bookBase: String, listening: String }
            return .json(document: Session(bookBase: app.bookResources.prefix, listening: app.configuration.address))
        }

        router.add("GET", "/api/events") { request in
            let last = (request.header("last-event-id")).flatMap(Int.init)
            var response = WebResponse(
                status: 200, contentType: "text/event-stream", headers: [("X-Accel-Buffering", "no")])
            response.body = .events(app.events.subscribe(after: last))
            return response
        }

        router.add("GET", "/api/openapi.json") { _ in
            .json(try OpenAPIDocument.merged(from: app.configuration.webRoot.appendingPathComponent("openapi")))
        }
    }

    /// The page that gives the app its session: the token in a meta element, which `/js/welcome.js` keeps in the
    /// origin's storage before it goes on to `next` (no inline script: the app's policy allows none).
    static func welcome(token: String, next: String) -> String {
        let escaped = HTMLEscape.text(next)
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Opening shelf</title>
            <meta name="shelf-session" content="\(token)" data-next="\(escaped)">
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/css/app.css">
            <script type="module" src="/js/welcome.js"></script></head>
            <body><main class="notice"><h1>Opening shelf…</h1></main></body></html>
            """
    }
}
