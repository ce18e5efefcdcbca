import Foundation

/// How WaveformSimilarityStretcher cuts speech into fragments at a given speed: how long a fragment is, how
/// far apart fragments start in the output, how far each may move to line up with the one before it, and
/// the weights that cross-fade them (the weights of the fragments covering any output frame sum to 1, so
/// the result is a convex mix of the input: never louder than it, never clipping).
///
/// Slowing down repeats material: short Hann fragments (29 ms), four overlapping, so that no repeated
/// stretch is long enough to be heard as an echo and the joins are averaged out. Up to 1.75x, the same with
/// 58 ms fragments: enough periods per fragment that voicing survives the skipping, while the output
/// follows the input's timeline within a few milliseconds (its spectrogram stays close to FFmpeg's, which
/// SpeedTests checks).
///
/// From 1.75x up, each join is where voicing breaks: a frame of speech that straddles a join between two
/// places of the input is periodic only if the two line up, and the input on either side of a join is ever
/// further apart. So fragments are long and flat-topped — played as they are, with a 24 ms raised-cosine
/// cross-fade into the next — and longer at the fastest speeds (100 ms, 120 ms from 2.25x): fewer joins keep
/// more periods whole. That is the reasoning behind sox's `tempo` (by default 82 ms segments overlapping by
/// 12 ms), which kept more voicing than the 58 ms Hann overlap from 2x up. The search reaches ±25 ms, more
/// than the period of a low voice (1/60 s), so a join can always move by a whole period, and the comparison
/// spans twice the cross-fade so that the period it aligns is also the one heard after the join.
///
/// Measured on espeak-ng speech of several voices with bench/audio/periodicity.py against sox and FFmpeg
/// (bench/audio/stretch.sh, StretchQualityTests); among the layouts tried (fragments of 60–140 ms,
/// cross-fades of 12–48 ms, searches of ±10–30 ms) these kept the most voicing at every speed.
struct FragmentLayout: Equatable {
    /// Input frames per fragment.
    let window: Int
    /// Output frames between the starts of two fragments.
    let hop: Int
    /// How far (frames, either way) a fragment may move from its nominal place.
    let search: Int
    /// Frames compared when lining a fragment up with what would have followed the last one.
    let matched: Int
    /// Each frame's weight in the overlap-add.
    let weights: [Float]

    init(window: Int, hop: Int, search: Int, matched: Int, weights: [Float]) {
        self.window = window
        self.hop = hop
        self.search = search
        self.matched = matched
        self.weights = weights
    }

    init(speed: Double, sampleRate: Int) {
        func frames(_ seconds: Double) -> Int { max(4, Int(seconds * Double(sampleRate))) }
        if speed < 1.75 {
            // Four Hann fragments overlapping; periodic Hann: four a quarter apart sum to 2, hence the half.
            let window = max(16, frames(speed < 1 ? 0.029 : 0.058) / 4 * 4)
            let weights = (0..<window).map { Float(0.25 - 0.25 * cos(2 * Double.pi * Double($0) / Double(window))) }
            self.init(window: window, hop: window / 4, search: window / 4, matched: window / 2, weights: weights)
        } else {
            let fade = frames(0.024)
            // At least two cross-fades long, so that fragments always move on (at any sample rate).
            let window = max(2 * fade, frames(speed < 2.25 ? 0.100 : 0.120))
            // sin² rising over the cross-fade, 1 in between, and its mirror falling: the falling end of one
            // fragment and the rising start of the next sum to 1 (sin² + cos²).
            let rise = (0..<fade).map { Float(pow(sin(Double.pi / 2 * (Double($0) + 0.5) / Double(fade)), 2)) }
            var weights = [Float](repeating: 1, count: window)
            for i in 0..<fade {
                weights[i] = rise[i]
                weights[window - 1 - i] = rise[i]
            }
            self.init(window: window, hop: window - fade, search: frames(0.025), matched: 2 * fade, weights: weights)
        }
    }
}
