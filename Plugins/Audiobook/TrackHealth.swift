import Foundation
import PluginKit

/// A local track checked against what it declares: how long its data really plays, and what is
/// wrong with it when it cannot play as the book says. The manifest then carries the length that
/// plays (so chapter times match what is heard) and names the problem for `info` and the player.
struct TrackHealth {
    /// Seconds the data holds; nil when it cannot be read at all.
    var seconds: Double?
    /// Words for a listener ("is missing", "plays 0:07 of the 0:13 it declares"), nil when sound.
    var problem: String?
    var missing = false

    /// A track shorter than it declares by more than this share (and more than `tolerance`
    /// seconds) is damaged: encoders round their headers, but not by seconds.
    static let tolerance = 1.0
    static let share = 0.02

    static func check(path: String, declared manifestSeconds: Double?) -> TrackHealth {
        // Not there (or not readable) is the problem said: "is missing".
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return TrackHealth(seconds: nil, problem: "is missing", missing: true)
        }
        guard ((attributes[.size] as? NSNumber)?.int64Value ?? 0) > 0 else {
            return TrackHealth(seconds: nil, problem: "is empty")
        }
        let media: MediaFile
        do { media = try MediaFile(path: path) } catch {
            return TrackHealth(seconds: nil, problem: (error as? PluginFailure)?.message ?? "cannot be read")
        }
        let rate = Double(media.stream.pointee.codecpar.pointee.sample_rate)
        let header = media.declaredDuration
        guard rate > 0, let measured = TrackLength.measure(media).map({ Double($0.frames) / rate }) else {
            return TrackHealth(seconds: header, problem: nil)
        }
        if measured <= 0 { return TrackHealth(seconds: 0, problem: "holds no sound that can be decoded") }
        let declared = [header, manifestSeconds].compactMap { $0 }.max()
        if let declared, declared - measured > max(tolerance, declared * share) {
            return TrackHealth(
                seconds: measured,
                problem:
                    "plays \(clock(measured)) of the \(clock(declared)) it declares: the file is cut short or damaged")
        }
        return TrackHealth(seconds: measured, problem: nil)
    }

    /// "0:07", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.down))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Records the check on a track: its playing length, and `shelf:missing` / `shelf:damaged`.
    func apply(to track: inout Track) {
        if let seconds { track.duration = seconds }
        guard let problem else { return }
        var props = track.properties ?? [:]
        if missing { props["shelf:missing"] = .bool(true) } else { props["shelf:damaged"] = .string(problem) }
        track.properties = props
    }
}
