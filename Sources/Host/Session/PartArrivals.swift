internal import ShelfLibrary
internal import ShelfPlayback
import Foundation

/// Tells a remote book's engine of each part that arrives whole, so that the part is measured then, not when it
/// plays: a manifest may give no duration, and until a part is measured the book's length, the chapters after it
/// and the time left are not known. The downloader reports parts before the engine exists (the first part is
/// waited for to make it), so the engine is attached later; parts that arrived in between are measured then.
///
/// Safe from several threads: the downloader's workers report arrivals while the session attaches the engine;
/// the engine is kept under `lock`, and the engine takes its own lock to measure.
final class PartArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var engine: PlaybackEngine?

    func attach(_ engine: PlaybackEngine, _ remote: RemoteAudiobook) {
        lock.withLock { self.engine = engine }
        remote.adoptCompletedParts()
        for part in remote.downloader.snapshot where part.state == .complete { engine.trackBecameAvailable(part.index) }
    }

    func arrived(_ index: Int, of remote: RemoteAudiobook) {
        remote.adoptCompletedParts()
        lock.withLock { engine }?.trackBecameAvailable(index)
    }
}
