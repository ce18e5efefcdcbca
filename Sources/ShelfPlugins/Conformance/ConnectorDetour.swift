import ShelfCore
import Foundation
import Synchronization

/// The connector checks' hold on a plugin's network: while installed (`ConnectorServices.detour`), every
/// request a plugin sends through "shelf.host.http/1" goes to a loopback server of the suite's instead (its
/// path and query kept), with one attempt and at most `timeout` seconds, and is counted. So a check can show a
/// connector a failing service whatever address its settings name, and see whether it stops when cancelled.
final class ConnectorDetour: Sendable {
    let port: UInt16
    let timeout: TimeInterval
    let client: HTTPClient
    private let sent = Atomic<Int>(0)

    init(port: UInt16, timeout: TimeInterval) {
        self.port = port
        self.timeout = timeout
        var configuration = HTTPClient.Configuration()
        configuration.requestTimeout = timeout
        configuration.connectTimeout = min(timeout, 5)
        configuration.retry = .none
        client = HTTPClient(configuration: configuration)
    }

    /// Requests the plugin has sent so far.
    var requests: Int { sent.load(ordering: .relaxed) }

    func divert(_ request: HTTPRequest) -> HTTPRequest {
        sent.add(1, ordering: .relaxed)
        var diverted = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        components.user = nil
        components.password = nil
        if components.path.isEmpty { components.path = "/" }
        diverted.url = components.url ?? URL(string: "http://127.0.0.1:\(port)/")!
        diverted.timeout = min(request.timeout ?? timeout, timeout)
        return diverted
    }
}
