import Foundation

/// One timeline over every track: a global frame ↔ (track, frame within the track). Lengths
/// start as the best guess (the decoder's count, else the manifest's duration) and are corrected
/// when a track is measured or decoded to its end. A track nothing has measured or declared yet (a
/// remote part whose manifest gives no duration) has no length: it counts 0 frames until it is
/// measured, and the book's length is unknown meanwhile (`isLengthKnown`), never 0 as if known.
public struct Timeline: Sendable, Equatable {
    public let sampleRate: Int
    public private(set) var lengths: [Int64]
    /// True where the length is exact (measured), false where it is the manifest's estimate.
    public private(set) var exact: [Bool]
    /// False where nothing says how long the track is yet (its length counts 0 until then).
    public private(set) var known: [Bool]
    private var starts: [Int64]

    public init(sampleRate: Int, lengths: [Int64], exact: [Bool], known: [Bool]? = nil) {
        self.sampleRate = max(1, sampleRate)
        self.lengths = lengths.map { max(0, $0) }
        self.exact = exact.count == lengths.count ? exact : Array(repeating: false, count: lengths.count)
        self.known =
            known.flatMap { $0.count == lengths.count ? $0 : nil } ?? Array(repeating: true, count: lengths.count)
        self.starts = []
        recompute()
    }

    /// Whether every track's length is measured or declared: only then is `duration` the book's length.
    public var isLengthKnown: Bool { !known.contains(false) }

    /// The tracks whose length nothing gives yet.
    public var unknownTracks: Int { known.filter { !$0 }.count }

    private mutating func recompute() {
        var s: [Int64] = []
        var acc: Int64 = 0
        for l in lengths {
            s.append(acc)
            acc = acc.addingReportingOverflow(l).overflow ? Int64.max / 2 : acc + l
        }
        starts = s
    }

    public var trackCount: Int { lengths.count }
    public var totalFrames: Int64 { (starts.last ?? 0) + (lengths.last ?? 0) }
    public var duration: Double { seconds(totalFrames) }

    public func start(ofTrack i: Int) -> Int64 { starts.indices.contains(i) ? starts[i] : totalFrames }

    public func seconds(_ frames: Int64) -> Double { Double(frames) / Double(sampleRate) }
    public func frames(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64((max(0, seconds) * Double(sampleRate)).rounded())
    }

    /// The track holding a global frame and the offset inside it. A frame on a boundary belongs to
    /// the later track, and to the first track of unknown length there (it plays next); the end of the
    /// book is the end of the last track.
    public func locate(_ global: Int64) -> (track: Int, offset: Int64) {
        guard !lengths.isEmpty else { return (0, 0) }
        let g = min(max(0, global), totalFrames)
        var lo = 0, hi = lengths.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= g { lo = mid } else { hi = mid - 1 }
        }
        // Back to the first track starting here (those before it in this place are empty), then forward past the
        // empty ones whose length is known, except at the very end.
        var t = lo
        while t > 0, starts[t - 1] == g { t -= 1 }
        while t < lengths.count - 1, known[t], g - starts[t] >= lengths[t] { t += 1 }
        return (t, min(g - starts[t], lengths[t]))
    }

    public func global(track: Int, offset: Int64) -> Int64 {
        guard lengths.indices.contains(track) else { return totalFrames }
        return starts[track] + max(0, offset)
    }

    /// What has been decoded of a track so far, when that is more than its length says: the track is longer, but
    /// no better known than before. A part still downloading as it plays grows this way, and until it has arrived
    /// (or its decoder ends) the book's length stays unknown and a place at the end of what it has is still in it.
    public mutating func grow(_ frames: Int64, ofTrack i: Int) {
        guard lengths.indices.contains(i), frames > lengths[i] else { return }
        lengths[i] = frames
        recompute()
    }

    /// Sets a track's length once it is known.
    public mutating func setLength(_ frames: Int64, ofTrack i: Int, exact isExact: Bool = true) {
        guard lengths.indices.contains(i) else { return }
        lengths[i] = max(0, frames)
        exact[i] = isExact
        known[i] = true
        recompute()
    }
}
