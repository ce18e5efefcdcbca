import Foundation

/// One track ("part") of a remote audiobook being downloaded, and how far it got (`DownloadPart`).
public struct DownloadPart: Sendable, Equatable {
    public enum State: String, Sendable, Codable { case queued, downloading, paused, failed, complete }

    public let index: Int
    public var url: URL
    public let destination: URL
    public var state: State
    public var bytes: Int64
    public var total: Int64?
    public var reason: String?

    public init(index: Int, url: URL, destination: URL, state: State, bytes: Int64, total: Int64?, reason: String?) {
        self.index = index
        self.url = url
        self.destination = destination
        self.state = state
        self.bytes = bytes
        self.total = total
        self.reason = reason
    }
}
