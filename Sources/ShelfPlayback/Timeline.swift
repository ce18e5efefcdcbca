import Foundation

/// One timeline over every track: a global frame ↔ (track, frame within the track). Lengths
/// start as the best guess (the decoder's count, else the manifest's duration) and are corrected
/// when a track is measured or decoded to its end.
public struct Timeline: Sendable, Equatable {
    public let sampleRate: Int
    public private(set) var lengths: [Int64]
    /// True where the length is exact (measured), false where it is the manifest's estimate.
    public private(set) var exact: [Bool]
    private var starts: [Int64]

    public init(sampleRate: Int, lengths: [Int64], exact: [Bool]) {
        self.sampleRate = max(1, sampleRate)
        self.lengths = lengths.map { max(0, $0) }
        self.exact = exact.count == lengths.count ? exact : Array(repeating: false, count: lengths.count)
        self.starts = []
        recompute()
    }

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
    /// the later track; the end of the book is the end of the last track.
    public func locate(_ global: Int64) -> (track: Int, offset: Int64) {
        guard !lengths.isEmpty else { return (0, 0) }
        let g = min(max(0, global), totalFrames)
        var lo = 0, hi = lengths.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= g { lo = mid } else { hi = mid - 1 }
        }
        // Skip empty tracks forward, except at the very end.
        var t = lo
        while t < lengths.count - 1, g - starts[t] >= lengths[t] { t += 1 }
        return (t, min(g - starts[t], lengths[t]))
    }

    public func global(track: Int, offset: Int64) -> Int64 {
        guard lengths.indices.contains(track) else { return totalFrames }
        return starts[track] + max(0, offset)
    }

    /// Sets a track's length once it is known.
    public mutating func setLength(_ frames: Int64, ofTrack i: Int, exact isExact: Bool = true) {
        guard lengths.indices.contains(i) else { return }
        lengths[i] = max(0, frames)
        exact[i] = isExact
        recompute()
    }
}
