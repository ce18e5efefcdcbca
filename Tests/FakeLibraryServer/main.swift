import Foundation
import TestSupport

// shelf-fake-library: the Swift tests' fake library (Palace's wire format on loopback) as a process, for the
// browser tests. It prints one JSON line with its catalog address and the patron's card, then serves until its
// standard input closes. Tests change the library's state through /control/… routes on the same server.

let library = try FakeLibrary()
library.add(
    .init(
        id: "urn:fake:audio-out", title: "Quiet Harbour", author: "Ines Vale", audiobook: true, copies: 1, available: 0,
        holds: ["someone"]))
library.add(
    .init(
        id: "urn:fake:ebook-more", title: "Northern Lights Atlas", author: "Jon Frost", audiobook: false, copies: 4,
        available: 4))

func seconds(_ request: LoopbackHTTPServer.Request) -> Date {
    Date().addingTimeInterval(TimeInterval(request.queryItems["in"].flatMap(Double.init) ?? 0))
}

let controls: [String: (FakeLibrary, String, LoopbackHTTPServer.Request) -> Void] = [
    "hold-ready": { library, id, _ in library.makeHoldReady(id) },
    "hold-end": { library, id, request in library.setHoldEnd(id, seconds(request)) },
    "loan-end": { library, id, request in library.setLoanEnd(id, seconds(request)) },
    "expire-loan": { library, id, _ in library.expireLoan(id) },
    "take-all": { library, id, _ in library.takeAllCopies(id) },
    "available": { library, id, request in library.setAvailable(id, Int(request.queryItems["n"] ?? "1") ?? 1) },
    "copies": { library, id, request in library.setCopies(id, Int(request.queryItems["n"] ?? "0") ?? 0) },
    // A library whose loans feed lists no branch hold (the id is not read).
    "unlist-branch-holds": { library, _, _ in library.listsBranchHolds = false },
    // Branch holds kept apart, each with its own revoke link (the id is not read).
    "revocable-branch-holds": { library, _, _ in
        library.listsBranchHolds = false
        library.revokesBranchHolds = true
    }
]
for (name, action) in controls {
    library.server.route("POST", "/control/\(name)") { request in
        guard let id = request.queryItems["id"] else { return .status(400) }
        action(library, id, request)
        return .text("ok")
    }
}

// /control/fault?route=borrow&kind=garbage[&acts=0][&times=N]: the next answers on a route go wrong (FakeLibrary.Fault);
// /control/clear-faults puts every route right again.
library.server.route("POST", "/control/fault") { request in
    let kinds: [String: FakeLibrary.Fault] = [
        "malformed": .malformed, "truncated": .truncated, "garbage": .garbage,
        "never": .neverAnswers, "stalled": .stalled(seconds: 30)
    ]
    guard let route = request.queryItems["route"].flatMap(FakeLibrary.Route.init(rawValue:)),
        let fault = request.queryItems["kind"].flatMap({ kinds[$0] })
    else { return .status(400) }
    library.inject(
        fault, on: route, acts: request.queryItems["acts"] != "0",
        times: request.queryItems["times"].flatMap(Int.init) ?? .max)
    return .text("ok")
}
installAudiobookControl(library)
library.server.route("POST", "/control/clear-faults") { _ in
    library.clearFaults()
    return .text("ok")
}

let card: [String: String] = [
    "root": library.root, "username": library.username, "password": library.password,
    "control": library.url("/control")
]
let line = try JSONSerialization.data(withJSONObject: card, options: [.sortedKeys])
FileHandle.standardOutput.write(line + Data("\n".utf8))

// Serves until the test that started it closes our standard input (or ends).
_ = FileHandle.standardInput.readDataToEndOfFile()
library.stop()
