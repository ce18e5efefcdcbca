internal import ShelfLibrary
internal import ShelfPlayback
import Foundation

// The audiobook commands' --json documents (docs/json.md, "Audiobooks").

/// What `shelf play --json` prints when playback stops.
public struct PlayReport: Encodable, Sendable {
    public let title: String
    public let output: String
    public let started: String
    public let stoppedBecause: String
    public let state: PlaybackState
    /// A book read aloud: every word and sentence heard, in order (absent for an audiobook).
    public var marks: [SpokenMark]?
    /// A narrated book (media overlays): every clip played, in order (absent for any other book).
    public var clips: [NarratedClip]?

    public init(title: String, output: String, started: String, stoppedBecause: String, state: PlaybackState) {
        self.title = title
        self.output = output
        self.started = started
        self.stoppedBecause = stoppedBecause
        self.state = state
    }
}

/// One part of a remote audiobook's download.
public struct PartReport: Encodable, Sendable {
    public let part: Int
    public let state: String
    public let bytes: Int64
    public let total: Int64?
    public let reason: String?
    public let path: String
    public init(_ p: DownloadPart) {
        part = p.index + 1
        state = p.state.rawValue
        bytes = p.bytes
        total = p.total
        reason = p.reason
        path = p.destination.path
    }
}

/// What `shelf fetch --json` prints: the book, where its parts are, and each part's state.
public struct FetchReport: Encodable, Sendable {
    public let title: String
    public let directory: String
    public let parts: [PartReport]

    init(_ remote: RemoteAudiobook) {
        title = remote.book.title
        directory = remote.directory.path
        parts = remote.downloader.snapshot.map(PartReport.init)
    }
}

/// A remote audiobook's download as `shelf downloads --json` lists it.
public struct AudiobookDownloadJSON: Encodable, Sendable {
    public let id: String
    public let title: String
    public let url: String
    public let directory: String
    /// Whether the process downloading it is still running.
    public let active: Bool
    public let parts: [PartReport]
}

/// A download handed to a process of its own (`shelf fetch --background --json`): the process, its log, the manifest.
public struct BackgroundFetchJSON: Encodable, Sendable {
    public let pid: String
    public let log: String
    public let url: String

    public init(pid: Int32, log: String, url: URL) {
        self.pid = "\(pid)"
        self.log = log
        self.url = url.absoluteString
    }
}
