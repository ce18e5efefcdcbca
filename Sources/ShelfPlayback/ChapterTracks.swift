import ShelfCore
import Foundation

/// The tracks of a book made ahead of playback, a chapter at a time, into WAV files that grow as they are written
/// (`NNN.wav` in the session's folder): a book read aloud (SpeechRecorder speaks them) and a narration
/// (NarrationRecorder cuts them from the book's audio) keep their progress here, so that the listening session asks
/// both the same way: which chapter's file is growing and how far, the marks made so far (a sentence or a phrase and
/// the frame where it starts), which chapters are whole, and what stopped the making.
///
/// Unchecked Sendable: every field is under `condition`, whose waiters are woken on each change.
public final class ChapterTracks<Mark: Sendable>: @unchecked Sendable {
    public let folder: URL
    /// The chapter where making starts; chapters before it are not made in this session.
    public let firstChapter: Int
    private let condition = NSCondition()
    private var complete: Set<Int> = []
    private var growing: Int?
    private var frames: [Int: Int64] = [:]
    private var marks: [Int: [Mark]] = [:]
    private var failure: Error?
    private var stopped = false
    /// Called (on the making thread) when a chapter's track is whole.
    public var onComplete: (@Sendable (Int) -> Void)?

    init(folder: URL, firstChapter: Int) { (self.folder, self.firstChapter) = (folder, firstChapter) }

    public func path(of chapter: Int) -> URL { folder.appendingPathComponent(String(format: "%03d.wav", chapter + 1)) }

    /// Makes each chapter from the first up to `count` on a thread of its own, until all are made, `stop` is called
    /// or one throws (kept as `error`); the state `initial` makes is the making thread's own, carried from one
    /// chapter to the next.
    func begin<State>(
        count: Int, initial: @escaping @Sendable () -> State,
        record: @escaping @Sendable (Int, inout State) throws -> Void
    ) {
        Thread.detachNewThread { [self] in
            var state = initial()
            do {
                for chapter in firstChapter..<max(firstChapter, count) {
                    try record(chapter, &state)
                    if isStopped { return }
                }
            } catch {
                fail(error)
            }
        }
    }

    /// Waits until the first chapter's track holds `frames` of sound, or is whole, so that playback can begin;
    /// throws what stopped the making before it did, or `silence` after `timeout`.
    func waitForFirstSound(frames wanted: Int64, timeout: TimeInterval, silence: () -> Error) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, !complete.contains(firstChapter), (frames[firstChapter] ?? 0) < wanted {
            if !condition.wait(until: deadline) { throw silence() }
        }
        if let failure, (frames[firstChapter] ?? 0) == 0 { throw failure }
    }

    // MARK: The making thread's side

    func starting(_ chapter: Int) {
        change {
            growing = chapter; frames[chapter] = 0; marks[chapter] = []
        }
    }

    /// The growing track now holds `count` frames; `adding` marks made since, `last` rewriting the last mark (a
    /// phrase still being cut grows with its track).
    func grew(_ chapter: Int, to count: Int64, adding: [Mark] = [], last: ((Mark) -> Mark)? = nil) {
        change {
            frames[chapter] = count
            marks[chapter, default: []].append(contentsOf: adding)
            if let last, let end = marks[chapter]?.endIndex, end > 0, let mark = marks[chapter]?[end - 1] {
                marks[chapter]?[end - 1] = last(mark)
            }
        }
    }

    func finished(_ chapter: Int) {
        change {
            complete.insert(chapter)
            growing = nil
        }
        onComplete?(chapter)
    }

    func fail(_ error: Error) { change { failure = failure ?? error } }

    private func change(_ body: () -> Void) {
        condition.withLock {
            body()
            condition.broadcast()
        }
    }

    // MARK: The session's side

    public func isComplete(_ chapter: Int) -> Bool { condition.withLock { complete.contains(chapter) } }

    /// The track still being written, when it is `chapter`'s and holds some sound: played as a part still arriving.
    public func growingFile(_ chapter: Int) -> String? {
        condition.withLock { growing == chapter && (frames[chapter] ?? 0) > 0 ? path(of: chapter).path : nil }
    }

    public func marks(of chapter: Int) -> [Mark] { condition.withLock { marks[chapter] ?? [] } }

    /// Frames made into a chapter's track so far.
    public func frames(of chapter: Int) -> Int64 { condition.withLock { frames[chapter] ?? 0 } }

    /// What stopped the making, if anything did.
    public var error: Error? { condition.withLock { failure } }

    /// Stops the making (the session ended); a call in flight is told at its next step (`isStopped`).
    public func stop() { change { stopped = true } }

    var isStopped: Bool { condition.withLock { stopped } }
}
