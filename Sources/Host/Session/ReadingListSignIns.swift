internal import ShelfLibrary
internal import ShelfCore
import Foundation

/// The browser app's sign-ins to reading-list services: the same flow as `shelf lists connect --authorize` (the
/// loopback redirect to 127.0.0.1 on this machine, the code exchanged here, the tokens kept with the connector's
/// secrets), with the browser that signed in sent back to the app (`returnTo`) once the sign-in is complete and the
/// lists are read. One per `LibrarySession`; a new sign-in to a service ends the one before it.
/// Unchecked Sendable: called from any of the server's threads; the states are under `lock`, the rest constants.
public final class ReadingListSignIns: @unchecked Sendable {
    /// How the last sign-in to a service went.
    public enum State: Sendable, Equatable {
        case waiting(ReadingListConnectionChange)
        case finished(ReadingListConnectionChange)
    }

    /// How long a sign-in waits for the browser to come back.
    let timeout: TimeInterval
    private let lock = NSLock()
    private var states: [String: (turn: Int, state: State)] = [:]
    private var turns = 0

    init(timeout: TimeInterval = 300) { self.timeout = timeout }

    public func state(of service: String) -> State? { lock.withLock { states[service]?.state } }

    /// Forgets the service's sign-in (a disconnect): one still waiting stops.
    func forget(_ service: String) { lock.withLock { _ = states.removeValue(forKey: service) } }

    /// Stores the settings and secrets and starts the sign-in; returns the service's address the browser goes to.
    /// Waiting for the browser, the exchange and the first pull happen on a thread of their own.
    func start(
        _ lists: ShelfLibrary.ReadingLists, service: String, settings: [String: String],
        secrets: [String: String], returnTo: String
    ) throws -> String {
        let name = (try? lists.settings(service: service).description.name) ?? service
        // A sign-in that does not complete leaves a service connected here before as it was, and connects no other.
        let wasConnected = try lists.database.services().contains { $0.service == service }
        let signIn = try lists.beginSignIn(service: service, settings: settings, secrets: secrets)
        let turn = lock.withLock { () -> Int in
            turns += 1
            states[service] = (turns, .waiting(.waitingForSignIn(service: name)))
            return turns
        }
        let box = ListsBox(lists: lists)
        let timeout = self.timeout
        Thread.detachNewThread { [self] in
            finish(
                signIn, box.lists, service: service, name: name, turn: turn, returnTo: returnTo, timeout: timeout,
                wasConnected: wasConnected)
        }
        return signIn.url
    }

    /// Waits for the browser, exchanges the code, reads the lists, and sends the browser back to the app.
    private func finish(
        _ signIn: ShelfLibrary.ReadingLists.SignIn, _ lists: ShelfLibrary.ReadingLists, service: String,
        name: String, turn: Int, returnTo: String, timeout: TimeInterval, wasConnected: Bool
    ) {
        let undo = { if !wasConnected { try? lists.disconnect(service: service) } }
        do {
            // The lists are read before the browser is sent back, so the page it comes back to shows them.
            try signIn.finish(timeout: timeout, isCancelled: { superseded(service, turn) }) { error in
                if let error {
                    undo()
                    record(service, turn, .signInFailed(service: name, reason: ShelfError.words(error)))
                } else {
                    do {
                        let pulled = try lists.pull(service: service)
                        // The to-read shelf's wishes are matched now; their news is the wish list's to say.
                        _ = try? lists.checkWishes()
                        record(service, turn, .signedIn(service: name, titles: pulled.first?.entries ?? 0))
                    } catch {
                        record(service, turn, .notRead(service: name, reason: ShelfError.words(error)))
                    }
                }
                return .redirect(returnTo)
            }
        } catch {
            // A failed exchange was recorded above; a wait that ended (time, another sign-in) is recorded here.
            if case .waiting? = state(of: service) {
                undo()
                record(service, turn, .signInFailed(service: name, reason: ShelfError.words(error)))
            }
        }
    }

    private func superseded(_ service: String, _ turn: Int) -> Bool { lock.withLock { states[service]?.turn != turn } }

    private func record(_ service: String, _ turn: Int, _ change: ReadingListConnectionChange) {
        lock.withLock { if states[service]?.turn == turn { states[service] = (turn, .finished(change)) } }
    }
}

/// The library's reading lists, handed to the sign-in's thread: its calls go through the database's lock.
private struct ListsBox: @unchecked Sendable {
    let lists: ShelfLibrary.ReadingLists
}
