import Foundation
import Host

/// The front end: hand-written HTML, CSS and JavaScript modules, served as they are from the web root (no build
/// step). They hold no data, so they need no session; the data comes from the API.
enum StaticFiles: WebModule {
    static let types = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "json": "application/json", "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
        "woff2": "font/woff2", "webmanifest": "application/manifest+json"
    ]

    static func install(in app: WebApp) {
        let root = app.configuration.webRoot.standardizedFileURL
        let serve: WebRouter.Handler = { request in
            var path = request.parameters["path"] ?? "index.html"
            if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
            guard !path.split(separator: "/").contains(where: { $0 == ".." || $0.hasPrefix(".") }) else {
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            }
            let file = root.appendingPathComponent(path).standardizedFileURL
            guard file.path.hasPrefix(root.path + "/"), let type = types[file.pathExtension.lowercased()],
                let data = FileManager.default.contents(atPath: file.path)
            else {
                throw WebError(404, RequestProblem.nothingAt(path: request.path))
            }
            return WebResponse(status: 200, contentType: type, body: data)
        }
        // The reader's scripts for book pages in an opaque origin (`BookResources`), which loads them as another
        // origin: public code, so any origin may.
        app.router.add("GET", "/.shelf/reader/{name}", access: .page) { request in
            var response = try BookOrigins.readerScript(
                BookOrigins.readerFolder + (request.parameters["name"] ?? ""), webRoot: root)
            response.headers.append(("Access-Control-Allow-Origin", "*"))
            return response
        }
        app.router.add("GET", "/", access: .page, serve)
        app.router.add("GET", "/{path...}", access: .page, serve)
    }

    /// Where the front end is: `$SHELF_WEB_ROOT`, then `share/shelf/web` beside the installed executable's
    /// folder, then `web/` in the checkout that built it (for `swift run` and the tests).
    static func findRoot(executable: URL, environment: [String: String]) -> URL? {
        var candidates: [URL] = []
        if let explicit = environment["SHELF_WEB_ROOT"] { candidates.append(URL(fileURLWithPath: explicit)) }
        let bin = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/shelf/web"))
        var folder = bin
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("web"))
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }

    /// A small page of its own for the browsers not let in (a link used up, a wrong password): the host's words as
    /// they are, and the page's own link on when it has one.
    static func notice(_ words: Words, link: (href: String, label: String)? = nil) -> String {
        let hint = words.hint.map { "<p>\(HTMLEscape.text($0))</p>" } ?? ""
        let next = link.map { "<p><a href=\"\(HTMLEscape.text($0.href))\">\(HTMLEscape.text($0.label))</a></p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Not let in · shelf</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/css/app.css"></head>
            <body><main class="notice"><h1>\(HTMLEscape.text(words.sentence))</h1>\(hint)\(next)</main></body></html>
            """
    }
}
