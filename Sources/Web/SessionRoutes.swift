import Foundation

/// Letting a browser in and what every page needs: the launch key or password exchanged for a session cookie,
/// the session's facts, the event stream, and the OpenAPI document.
enum SessionRoutes: WebModule {
    static func install(in app: WebApp) {
        let router = app.router, guardian = app.guardian

        // The address `shelf serve --open` opens. The key leaves the address bar at once (303 to the app).
        router.add("GET", "/open", access: .page) { request in
            guard let token = guardian.admit(secret: request.query["key"]) else {
                return .html(StaticFiles.notice(title: "This link has expired",
                                                text: "Run <code>shelf serve --open</code> again to open shelf in your browser."), status: 403)
            }
            // A file to open is kept here, and the page asks for it by a token (`OpenFile`).
            let target = request.query["file"].flatMap { $0.isEmpty ? nil : "/#/open?request=\(app.fileRequests.token(for: $0))" } ?? "/"
            return .redirect(to: target, headers: [RequestGuard.cookieHeader(token)])
        }

        // With --listen: a browser on another machine signs in with the password instead of the key.
        router.add("POST", "/login", access: .page) { request in
            guard let origin = request.header("origin"), guardian.allowedOrigins.contains(origin.lowercased()) else {
                throw WebError(403, "Requests from other sites are refused", kind: "refused-origin")
            }
            let form = URLComponents(string: "?" + String(decoding: request.body, as: UTF8.self))?.queryItems ?? []
            let password = form.first { $0.name == "password" }?.value?.replacingOccurrences(of: "+", with: " ")
            guard let token = guardian.admit(secret: nil, password: password) else {
                return .html(StaticFiles.notice(title: "Wrong password", text: "<a href=\"/login.html\">Try again</a>."), status: 403)
            }
            return .redirect(to: "/", headers: [RequestGuard.cookieHeader(token)])
        }

        router.add("GET", "/api/session") { _ in
            try .json(object: ["bookBase": app.bookResources.prefix, "listening": app.configuration.address])
        }

        router.add("GET", "/api/events") { request in
            let last = (request.header("last-event-id")).flatMap(Int.init)
            var response = WebResponse(status: 200, contentType: "text/event-stream", headers: [("X-Accel-Buffering", "no")])
            response.body = .events(app.events.subscribe(after: last))
            return response
        }

        router.add("GET", "/api/openapi.json") { _ in
            .json(try OpenAPIDocument.merged(from: app.configuration.webRoot.appendingPathComponent("openapi")))
        }
    }
}
