import Host

/// `GET /api/words`: every sentence the browser's scripts say of their own (a page turn at the end of the book, a
/// lost connection, a setting not saved), by key, as the host's words module writes them (`BrowserWords`). The app
/// and the reader load them once at start (web/js/notices.js) and show each as it is given.
enum WordsAPI: WebModule {
    static func install(in app: WebApp) {
        app.router.add("GET", "/api/words") { _ in .json(document: BrowserWords.lines) }
    }
}
