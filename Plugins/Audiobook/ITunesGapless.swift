import Foundation

/// iTunes' gapless information (`iTunSMPB`, in MP4/M4A/M4B files from iTunes, afconvert and most AAC encoders on
/// Apple systems): the encoder's priming, the padding after the last sample, and the number of samples the source
/// had. FFmpeg removes the priming (from the edit list, or from this tag) but not the padding, and an edit list's
/// length is in milliseconds at best (up to 22 samples off at 44.1 kHz, at every join of a book in tracks); the
/// count here is exact, so a track ends on its last sample and the next starts on the sample after it.
///
/// The value is hex words: " 00000000 00000840 000001CA 00000000003F31F6 ..." (a reserved word, priming, padding,
/// original sample count).
struct ITunesGapless: Equatable {
    let priming: Int64
    let padding: Int64
    let samples: Int64

    init?(_ tag: String?) {
        guard let words = tag?.split(whereSeparator: \.isWhitespace), words.count >= 4,
            let priming = Int64(words[1], radix: 16), let padding = Int64(words[2], radix: 16),
            let samples = Int64(words[3], radix: 16), samples > 0, priming >= 0, padding >= 0
        else { return nil }
        self.priming = priming
        self.padding = padding
        self.samples = samples
    }

    /// The track's length in frames when the tag agrees with what the stream holds (`decodable`: the frames the
    /// packets make, priming and padding included, when known); nil for a tag copied onto another encoding.
    func length(decodable: Int64?) -> Int64? {
        guard let decodable else { return samples }
        // The source's samples plus the encoder's priming and padding fill the packets, give or take one AAC frame.
        return abs(decodable - (priming + samples + padding)) <= 2048 ? samples : nil
    }
}
