import ShelfValues
import ShelfCore
import Foundation
import PluginAPI

/// The connector checks that need a configured connection (`shelf conformance --set KEY=VALUE`, and
/// `--secret KEY` for what the connector reads from the credentials service; `SERVICE.KEY` for one service): the
/// settings' service, then the same connection shown a failing service and cancelled, each service on its own. A
/// service without settings is skipped, saying so; one whose pull makes no HTTP request (it reads a file) is not
/// concerned by a failing or stalled HTTP service: not applicable.
enum ConnectorServiceChecks {
    typealias Failure = ConformanceChecks.CheckFailure

    /// How long a connector may take to give up on a failing service, and to stop once cancelled.
    static let requestLimit: TimeInterval = 2
    static let giveUpLimit: TimeInterval = 20
    static let cancelLimit: TimeInterval = 5

    /// Runs `body` on each service of a configured connector, a result for each. A plugin that is no connector
    /// passes (as in the "connector" check); a service without settings is skipped, saying what to give.
    static func configured(_ s: ConformanceChecks.Subject, _ body: (String) throws -> ConformanceResult.Status) throws
        -> ConformanceResult.Status
    {
        guard ConnectorConformance.isConnector(s.plugin) else {
            s.note("not a connector")
            return .passed
        }
        try ConnectorConformance.useScratchCredentials(s)
        return try s.eachService { service in
            guard !s.settings(for: service).isEmpty else {
                s.note(
                    "needs a configured connection: pass --set \(service).KEY=VALUE (or --set KEY=VALUE for every service, and --secret KEY "
                        + "for what it reads from the credentials service) for a service the connector can reach, such as a loopback fake"
                )
                return .skipped
            }
            return try body(service)
        }
    }

    // MARK: connector-settings

    /// connect with the settings, describe, a required setting left out is refused naming it, pull twice (the
    /// same entries), push what was pulled twice (nothing added the second time).
    static func settings(_ s: ConformanceChecks.Subject) throws -> ConformanceResult.Status {
        try configured(s) { service in
            let connector = try Connector(plugin: s.plugin, service: service)
            let given = s.settings(for: service)
            let settings = ReadingListJSON.string(given)
            let description: ConnectorDescription
            do {
                description = try s.call("describe(\(service))") { try connector.describe() }
            } catch {
                throw Failure("describe(\(service)): \(error)")
            }
            for setting in description.settings ?? [] where setting.required == true && setting.secret != true {
                var without = given
                guard without.removeValue(forKey: setting.key) != nil else { continue }
                do {
                    _ = try s.call("connect(\(service), \(ReadingListJSON.string(without)))") {
                        try connector.connect(settings: without)
                    }
                    throw Failure(
                        "connect(\(service), \(ReadingListJSON.string(without))) succeeded without the required setting \(setting.key): "
                            + "it must fail with SHELF_E_INVALID_ARGUMENT naming it (readinglist.h)")
                } catch let refused as PluginCallError {
                    guard refused.status == SHELF_E_INVALID_ARGUMENT,
                        (refused.message + refused.location).contains(setting.key)
                    else {
                        throw Failure(
                            "connect(\(service)) without the required setting \(setting.key) failed with \(PluginCallError.name(of: refused.status)) "
                                + "\"\(refused.message)\": expected SHELF_E_INVALID_ARGUMENT naming \(setting.key)")
                    }
                }
            }
            let connection = try connect(s, connector, service)
            func pull() throws -> PullResult {
                do { return try s.call("pull(\(service), {}) with \(settings)") { try connection.pull() } } catch let
                    failure as PluginCallError
                {
                    throw Failure(
                        "pull(\(service), {}) with \(settings) failed with \(PluginCallError.name(of: failure.status)): \(failure.message)"
                    )
                } catch let error as ShelfError {
                    throw Failure("pull(\(service), {}) with \(settings): \(error.message)")
                }
            }
            let first = try pull(), second = try pull()
            guard ReadingListJSON.string(first.entries) == ReadingListJSON.string(second.entries) else {
                throw Failure(
                    "pull(\(service), {}) with \(settings) twice gave different entries (\(first.entries.count), then \(second.entries.count))"
                )
            }
            s.note(
                "with \(given.keys.sorted().joined(separator: ", ")): pull gave \(first.entries.count) entries, twice the same"
            )
            let readable = Array(first.entries.filter { $0.shelf == "read" || $0.shelf == "to-read" }.prefix(3))
            guard !readable.isEmpty else {
                s.note("nothing on read or to-read to push back")
                return .passed
            }
            do {
                _ = try s.call("push(\(service), \(readable.count) pulled entries)") { try connection.push(readable) }
                let again = try s.call("push(\(service), the same \(readable.count) entries again)") {
                    try connection.push(readable)
                }
                if let added = again.results.first(where: { $0.status == "added" }) {
                    throw Failure(
                        "push(\(service)) of entries already pushed added entry \(added.index) again: push is idempotent (readinglist.h)"
                    )
                }
                s.note("push twice, nothing added the second time")
            } catch let failure as PluginCallError where failure.status == SHELF_E_UNSUPPORTED {
                s.note("push unsupported")
            } catch let failure as PluginCallError {
                throw Failure(
                    "push(\(service), \(readable.count) pulled entries) failed with \(PluginCallError.name(of: failure.status)): \(failure.message)"
                )
            }
            return .passed
        }
    }

    // MARK: connector-failures

    /// The configured connection's requests all go to a service that answers 500, then garbage, then nothing:
    /// each pull fails with a message, in time.
    static func failures(_ s: ConformanceChecks.Subject) throws -> ConformanceResult.Status {
        try configured(s) { service in
            let connection = try connect(s, try Connector(plugin: s.plugin, service: service), service)
            for failure in FailingService.Failure.allCases {
                let server = try FailingService(failure)
                defer { server.stop() }
                let detour = ConnectorDetour(port: server.port, timeout: requestLimit)
                ConnectorServices.detour = detour
                defer { ConnectorServices.detour = nil }
                let what = "pull(\(service), {}) from a service that gives \(failure.rawValue)"
                guard let result = within(giveUpLimit, { Result { try s.call(what) { pullOutcome(connection) } } })
                else {
                    throw Failure(
                        "\(what) did not return within \(Int(giveUpLimit)) s (each request ended after \(Int(requestLimit)) s): "
                            + "stop at the first failed request")
                }
                let outcome = try result.get()
                if detour.requests == 0 {
                    s.note(
                        "pull made no HTTP request (it reads a file or a cache), so a failing HTTP service does not concern it"
                    )
                    return .notApplicable
                }
                switch outcome {
                case .pulled(let result):
                    throw Failure(
                        "\(what) succeeded with \(result.entries.count) entries: a connector reports a failed service "
                            + "(SHELF_E_IO, or SHELF_E_BAD_DATA for an answer it cannot read)")
                case .malformed(let message):
                    throw Failure("\(what): \(message)")
                case .failed(let status, let message):
                    if message.isEmpty {
                        throw Failure("\(what) failed with \(PluginCallError.name(of: status)) but no message")
                    }
                    s.note("\(failure.rawValue): \(PluginCallError.name(of: status))")
                }
            }
            return .passed
        }
    }

    // MARK: connector-cancel

    /// A pull waiting on a service that does not answer is cancelled (the call's own cancellation, what
    /// `is_cancelled` reports): it returns SHELF_E_CANCELLED promptly and sends nothing more.
    static func cancel(_ s: ConformanceChecks.Subject) throws -> ConformanceResult.Status {
        try configured(s) { service in
            let connection = try connect(s, try Connector(plugin: s.plugin, service: service), service)
            let server = try FailingService(.stall)
            defer { server.stop() }
            let detour = ConnectorDetour(port: server.port, timeout: 60)
            ConnectorServices.detour = detour
            defer { ConnectorServices.detour = nil }
            let token = CallCancellation()
            let what = "pull(\(service), {}) cancelled while it waits for the service"
            let running = Background { Result { try s.call(what) { token.during { pullOutcome(connection) } } } }
            // Until the pull's first request arrives, or the pull ends without one (a file: nothing to cancel).
            let start = Date()
            while !server.waitForConnection(timeout: 0.1) {
                if try running.wait(0) != nil, detour.requests == 0 {
                    s.note(
                        "pull made no HTTP request (it reads a file or a cache), so there is no wait on a service to cancel"
                    )
                    return .notApplicable
                }
                if Date().timeIntervalSince(start) > giveUpLimit {
                    throw Failure(
                        "pull(\(service), {}) sent no request within \(Int(giveUpLimit)) s and did not return")
                }
            }
            let sentBefore = detour.requests
            token.cancel()
            guard let outcome = try running.wait(cancelLimit)?.get() else {
                throw Failure(
                    "\(what) did not return within \(Int(cancelLimit)) s: poll shelf_host.is_cancelled and stop at SHELF_E_CANCELLED"
                )
            }
            if detour.requests > sentBefore {
                throw Failure(
                    "\(what) sent \(detour.requests - sentBefore) more requests after it was cancelled: stop at SHELF_E_CANCELLED"
                )
            }
            switch outcome {
            case .failed(SHELF_E_CANCELLED, _):
                s.note("cancelled pull returned SHELF_E_CANCELLED")
                return .passed
            case .failed(let status, let message):
                throw Failure(
                    "\(what) failed with \(PluginCallError.name(of: status)) (\(message)): a cancelled call returns SHELF_E_CANCELLED (plugin.h)"
                )
            case .pulled(let result):
                throw Failure(
                    "\(what) succeeded with \(result.entries.count) entries: a cancelled call returns SHELF_E_CANCELLED (plugin.h)"
                )
            case .malformed(let message):
                throw Failure("\(what): \(message)")
            }
        }
    }

    // MARK: helpers

    static func connect(_ s: ConformanceChecks.Subject, _ connector: Connector, _ service: String) throws
        -> Connector.Connection
    {
        let given = s.settings(for: service)
        let settings = ReadingListJSON.string(given)
        do {
            return try s.call("connect(\(service), \(settings))") { try connector.connect(settings: given) }
        } catch let failure as PluginCallError {
            throw Failure(
                "connect(\(service), \(settings)) failed with \(PluginCallError.name(of: failure.status)): \(failure.message)"
            )
        }
    }

    enum PullOutcome {
        case pulled(PullResult), failed(shelf_status, String), malformed(String)
    }

    static func pullOutcome(_ connection: Connector.Connection) -> PullOutcome {
        do {
            return .pulled(try connection.pull())
        } catch let failure as PluginCallError {
            return .failed(failure.status, failure.message)
        } catch {
            return .malformed("\(error)")
        }
    }

    /// Runs `body` on a thread of its own and waits up to `seconds` for it; nil when it did not return (the
    /// thread is left behind: the check's process ends soon after).
    static func within<T>(_ seconds: TimeInterval, _ body: @escaping @Sendable () -> T) -> T? {
        Background(body).wait(seconds)
    }

    /// Unchecked Sendable: `result` is written by the one thread it starts and read only after `done` is signalled.
    final class Background<T>: @unchecked Sendable {
        private var result: T?
        private let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () -> T) {
            let thread = Thread { [self] in
                result = body()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        func wait(_ seconds: TimeInterval) -> T? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            done.signal()
            return result
        }
    }
}
