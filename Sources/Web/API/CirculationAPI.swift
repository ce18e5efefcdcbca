import Foundation
import Host

/// Borrowing in the API: borrow, reserve, return and cancel a hold, each answered with the outcome as a document
/// (docs/json.md, Outcome) whose message is the host's words for the browser (`CirculationResult`); and
/// downloads, which run on after the answer with their progress, end or failure on the event stream. The same
/// session calls as `shelf borrow`, `reserve`, `return`, `cancel-hold` and `download`.
enum CirculationAPI {
    static func install(in app: WebApp, sync: LibrarySync) {
        let router = app.router

        for action in ["borrow", "reserve", "return", "cancel-hold"] {
            router.add("POST", "/api/book/\(action)") { request in
                let body = try request.json()
                let id = try request.required("id")
                let library = try app.library()
                // A return or a cancel acts at the account that has the loan or hold (the one named, if any).
                let circulation =
                    action == "return" || action == "cancel-hold"
                    ? try library.circulation(
                        account: account(body), givingBack: id,
                        asked: action == "return" ? .returnLoan : .cancelHold)
                    : try library.circulation(account: account(body))
                let entry = try circulation.entry(id)
                let outcome: CirculationResult
                switch action {
                case "borrow": outcome = .borrowed(try circulation.borrow(entry))
                case "reserve":
                    let branch = body.word("branch")
                    outcome = .reserved(try circulation.reserve(entry, branch: branch))
                case "return":
                    try circulation.returnLoan(entry, face: .browser)
                    outcome = .returned(entry)
                default:
                    // Which hold: a title's own and a branch's can both be held; Reservations' row names its own.
                    let hold = HoldChoice(apiBranch: body.string("branch"))
                    try circulation.cancelHold(entry, hold: hold, face: .browser)
                    outcome = .cancelled(entry)
                }
                sync.publishStatus()
                return .json(document: CirculationJSON(outcome, face: .browser, openable: library.openable))
            }
        }

        // A download runs on after the answer, on a thread of its own; its progress (at most twice a second, and
        // when it waits for the library: DownloadProgressEvents), end or failure comes on the event stream (`download`).
        router.add("POST", "/api/book/download") { request in
            let id = try request.required("id")
            let body = try request.json()
            let name = account(body)
            // Listen: an audiobook opens in the player once its first part is here (`playable`), the rest arriving.
            let listening = body.bool("listen") == true
            let library = try app.library()
            // The title is found before answering (a wrong id is refused at once); the download's own circulation is
            // made on its thread, which it alone uses.
            let entry = try library.circulation(account: name).entry(id)
            let started = DownloadEventJSON(.started(entry), face: .browser)
            app.events.publish("download", document: started)
            Thread.detachNewThread {
                let events = DownloadProgressEvents(entry: entry) { app.events.publish("download", document: $0) }
                defer { events.stop() }
                let state: DownloadState
                do {
                    let circulation = try library.circulation(account: name)
                    let outcome = try library.download(
                        entry, with: circulation, progress: { events.progress($0) },
                        playable: listening
                            ? { book in
                                app.events.publish(
                                    "download",
                                    document: DownloadEventJSON(.playable(entry, book: book), face: .browser))
                            } : nil)
                    state = .done(outcome)
                } catch let error as ShelfError {
                    state = .failed(entry, error)
                } catch {
                    state = .failed(entry, ShelfError(.failure, "\(error)"))
                }
                events.stop()  // before the end is published: no progress comes after it
                app.events.publish("download", document: DownloadEventJSON(state, face: .browser))
                sync.publishStatus()
            }
            return .json(document: started, status: 202)
        }
    }

    private static func account(_ body: JSONBody) -> String? {
        body.word("account")
    }
}
