import Foundation
import Host

/// A download's progress on the event stream (`download`, state `progress`), honest about what is known: the bytes
/// that arrived and the size when the library announced it, at most twice a second, and "waiting for the library"
/// once no byte came for `stall` seconds (a timer notices it: a stalled download calls back no more).
/// Unchecked Sendable: the state is read and written under `lock`; the timer runs on a queue of its own.
final class DownloadProgressEvents: @unchecked Sendable {
    /// No byte for this long and the download is said to be waiting.
    static let stall: TimeInterval = 3
    /// Progress goes out at most this often.
    static let interval: TimeInterval = 0.5

    private let lock = NSLock()
    private let entry: CatalogEntry
    private let publish: @Sendable (Event) -> Void
    private let timer: DispatchSourceTimer
    private var bytes: Int64 = 0
    private var total: Int64?
    private var lastByte = Date()
    private var lastSent = Date.distantPast
    private var waiting = false
    private var stopped = false

    /// What the page gets: the host's download event with the bytes, the size, the button's words and whether it
    /// is waiting.
    struct Event: Encodable {
        let id: String
        let state = "progress"
        let bytes: Int64
        let total: Int64?
        /// 0...1 when the size is known and not passed (kept for older pages).
        let fraction: Double?
        let waiting: Bool
        /// The sentence, for a screen reader.
        let message: String
        /// The few words on the button.
        let label: String
    }

    init(entry: CatalogEntry, publish: @escaping @Sendable (Event) -> Void) {
        self.entry = entry
        self.publish = publish
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "shelf.web.download-progress"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in self?.checkStall() }
        timer.resume()
    }

    /// A callback of the download: bytes arrived (or the same bytes again).
    func progress(_ progress: DownloadProgress) {
        // Published under the lock, so nothing is published after `stop` returns (the end follows it).
        lock.withLock {
            guard !stopped, progress.bytesWritten != bytes || progress.totalBytes != total else { return }
            let now = Date()
            (bytes, total, lastByte) = (progress.bytesWritten, progress.totalBytes, now)
            if waiting { waiting = false } else if now.timeIntervalSince(lastSent) < Self.interval { return }
            lastSent = now
            publish(makeEvent())
        }
    }

    /// The download ended: no more progress, waiting or not.
    func stop() {
        lock.withLock { stopped = true }
        timer.cancel()
    }

    private func checkStall() {
        lock.withLock {
            guard !stopped, !waiting, Date().timeIntervalSince(lastByte) >= Self.stall else { return }
            waiting = true
            lastSent = Date()
            publish(makeEvent())
        }
    }

    /// Under `lock`.
    private func makeEvent() -> Event {
        let report = DownloadReport(title: entry.title, bytes: bytes, total: total, waiting: waiting)
        let fraction = total.flatMap { $0 > 0 && bytes < $0 ? Double(bytes) / Double($0) : nil }
        return Event(
            id: entry.id, bytes: bytes, total: total, fraction: fraction, waiting: waiting,
            message: report.words(for: .browser).line, label: report.label)
    }
}
