import Foundation
import Host

/// Server-sent events: what changes on its own (notifications, sync results, download progress, and the kinds
/// the reader and the player add) goes to every open `/api/events` stream. A kind is any short name; each area
/// publishes its own. The last events are kept so a browser that reconnects with `Last-Event-ID` misses none.
/// Unchecked Sendable: the kept events, the next id and `closed` are read and written under `condition`.
public final class EventHub: @unchecked Sendable {
    public struct Event: Sendable {
        public let id: Int
        public let kind: String
        public let data: Data

        /// The event in the text/event-stream format.
        var wire: Data {
            var text = "id: \(id)\nevent: \(kind)\n"
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
                text += "data: \(line)\n"
            }
            return Data((text + "\n").utf8)
        }
    }

    private let condition = NSCondition()
    private var recent: [Event] = []
    private var nextID = 1
    private var closed = false
    private let keep: Int

    public init(keep: Int = 200) { self.keep = keep }

    /// Sends `kind` with a JSON body to every stream.
    public func publish(_ kind: String, json: Data) {
        condition.lock()
        recent.append(Event(id: nextID, kind: kind, data: json))
        nextID += 1
        if recent.count > keep { recent.removeFirst(recent.count - keep) }
        condition.broadcast()
        condition.unlock()
    }

    /// Sends `kind` with a JSON body made from Foundation objects.
    /// One of the host's documents as an event's data.
    public func publish<T: Encodable>(_ kind: String, document: T) {
        publish(kind, json: Data(ReadiumJSON.encode(document).utf8))
    }

    /// A stream from now on, or from just after `lastEventID` while that event is still kept.
    public func subscribe(after lastEventID: Int? = nil) -> EventSubscription {
        condition.lock()
        defer { condition.unlock() }
        let start = lastEventID.map { $0 + 1 } ?? nextID
        return EventSubscription(hub: self, next: max(start, recent.first?.id ?? nextID))
    }

    /// Ends every stream (the server stops).
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The events from `id` on, waiting up to `timeout` for one; nil when the hub closed.
    func events(from id: Int, timeout: TimeInterval) -> [Event]? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while !closed && (recent.last?.id ?? 0) < id {
            if !condition.wait(until: deadline) { break }
        }
        if closed { return nil }
        return recent.filter { $0.id >= id }
    }
}

/// One open event stream; the server's connection thread reads it until the browser goes or the hub closes.
public final class EventSubscription: @unchecked Sendable {
    private let hub: EventHub
    private var next: Int
    /// How long a quiet stream waits before a comment line keeps proxies and the browser from timing out.
    static let keepAlive: TimeInterval = 15

    init(hub: EventHub, next: Int) {
        self.hub = hub
        self.next = next
    }

    /// The next bytes to write: events, a keep-alive comment, or nil at the end.
    func nextChunk() -> Data? {
        guard let events = hub.events(from: next, timeout: Self.keepAlive) else { return nil }
        guard let last = events.last else { return Data(": keep-alive\n\n".utf8) }
        next = last.id + 1
        return events.reduce(into: Data()) { $0.append($1.wire) }
    }
}
