import Foundation
import Host

/// Borrowing in the API: borrow, reserve, return and cancel a hold, each answered with the outcome as a document
/// (docs/json.md, Outcome) whose message is in the app's words (the command line's name commands to type); and
/// downloads, which run on after the answer with their progress, end or failure on the event stream. The same
/// session calls as `shelf borrow`, `reserve`, `return`, `cancel-hold` and `download`.
enum CirculationAPI {
    static func install(in app: WebApp, sync: LibrarySync) {
        let router = app.router

        for action in ["borrow", "reserve", "return", "cancel-hold"] {
            router.add("POST", "/api/book/\(action)") { request in
                let body = try request.jsonObject()
                let id = try request.required("id")
                let library = try app.library()
                let circulation = try library.circulation(account: account(body))
                let entry = try circulation.entry(id)
                let outcome: Outcome
                switch action {
                case "borrow": outcome = Outcome(try circulation.borrow(entry))
                case "reserve":
                    let branch = (body["branch"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                    outcome = Outcome(try circulation.reserve(entry, branch: branch))
                case "return":
                    try circulation.returnLoan(entry)
                    outcome = Outcome(result: "returned", entry: entry)
                default:
                    try circulation.cancelHold(entry)
                    outcome = Outcome(result: "cancelled", entry: entry)
                }
                sync.publishStatus()
                return .json(document: CirculationJSON(action: action, result: outcome.result, message: outcome.words,
                                                       entry: outcome.entry, hold: outcome.hold, openable: library.openable))
            }
        }

        // A download runs on after the answer, on a thread of its own; its progress (at most twice a second), end or
        // failure comes on the event stream (`download`).
        router.add("POST", "/api/book/download") { request in
            let id = try request.required("id")
            let name = account(try request.jsonObject())
            let library = try app.library()
            app.events.publish("download", object: ["id": id, "state": "started"])
            Thread.detachNewThread {
                do {
                    let circulation = try library.circulation(account: name)
                    let entry = try circulation.entry(id)
                    var said = Date.distantPast
                    let outcome = try library.download(entry, with: circulation) { progress in
                        guard let fraction = progress.fractionCompleted, Date().timeIntervalSince(said) >= 0.5 else { return }
                        said = Date()
                        app.events.publish("download", object: ["id": id, "state": "progress", "fraction": min(1, max(0, fraction))])
                    }
                    let document = try JSONSerialization.jsonObject(with: Data(ReadiumJSON.encode(DownloadedJSON(entry: entry, outcome: outcome)).utf8))
                    app.events.publish("download", object: ["id": id, "state": "done", "download": document])
                } catch let error as ShelfError {
                    app.events.publish("download", object: ["id": id, "state": "failed", "message": error.message,
                                                            "retry": error.kind == .temporary])
                } catch {
                    app.events.publish("download", object: ["id": id, "state": "failed", "message": "\(error)", "retry": false])
                }
                sync.publishStatus()
            }
            return try .json(object: ["id": id, "state": "started"], status: 202)
        }
    }

    private static func account(_ body: [String: Any]) -> String? {
        (body["account"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What the library did, in one word and in the app's words.
    struct Outcome {
        let result: String
        let entry: CatalogEntry
        var hold: HoldRecord?

        /// Whether the patron asked for a hold (an outcome's words then say nothing was reserved).
        var reserving = false

        init(result: String, entry: CatalogEntry, hold: HoldRecord? = nil, reserving: Bool = false) {
            self.result = result
            self.entry = entry
            self.hold = hold
            self.reserving = reserving
        }

        init(_ borrowed: Circulation.BorrowOutcome) {
            switch borrowed {
            case .loaned(let loan): self.init(result: "loaned", entry: loan)
            case .alreadyOnLoan(let loan): self.init(result: "already-on-loan", entry: loan)
            case .openAccess(let free): self.init(result: "open-access", entry: free)
            case .unavailable(let current, _): self.init(result: "unavailable", entry: current)
            }
        }

        init(_ reserved: Circulation.ReserveOutcome) {
            switch reserved {
            case .placed(let hold): self.init(result: "reserved", entry: hold.entry, hold: hold)
            case .alreadyReserved(let hold): self.init(result: "already-reserved", entry: hold.entry, hold: hold)
            // Free because the copy is the patron's own loan (`shelf reserve` says the same).
            case .availableNow(let current) where current.availability.state == .loaned:
                self.init(result: "already-on-loan", entry: current, hold: nil, reserving: true)
            case .availableNow(let current): self.init(result: "available-now", entry: current)
            case .loaned(let loan): self.init(result: "loaned", entry: loan)
            }
        }

        /// Said by the page's live region as it is: what happened and what the patron can do next, in the
        /// app's terms (My Books, Get, Reserve).
        var words: String {
            let title = "“\(entry.title)”"
            switch result {
            case "loaned": return "Borrowed \(title). It is in My Books."
            case "already-on-loan" where reserving:
                return "\(title) is already on loan to you (\(entry.availability.words)). Nothing was reserved: download it from My Books."
            case "already-on-loan": return "\(title) is already on loan to you."
            case "open-access": return "\(title) is free to read: no loan is needed. Download it."
            case "unavailable" where entry.availability.state == .ready:
                // The patron's hold is waiting, yet the library lent nothing (its answer did not say it did, and
                // asked again it still lists the hold): "no copy is free, reserve it" would be false on both counts.
                return "The library did not lend \(title) (\(entry.availability.words)). Nothing was borrowed. Your hold is kept: try Get again."
            case "unavailable":
                return "No copy of \(title) is free right now (\(entry.availability.words)). Nothing was borrowed; you can reserve it."
            case "reserved": return "Reserved \(title)." + (hold?.position.map { " You are number \($0) in the queue." } ?? "")
            case "already-reserved": return "You have already reserved \(title)."
            case "available-now": return "A copy of \(title) is free now: nothing was reserved. Get it instead."
            case "returned": return "Returned \(title)."
            default: return "Cancelled your hold on \(title)."
            }
        }
    }
}
