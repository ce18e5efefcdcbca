import ShelfValues
import ShelfCore
import Foundation
import PluginAPI

/// The checks of `shelf.speech/1` (speech.h): the voices listed, a text spoken into PCM as declared with its marks
/// in order and inside the text, bad options refused, and cancellation, by the sink and by the host. A plugin that
/// offers no speech passes them, saying so.
enum SpeechChecks {
    typealias Subject = ConformanceChecks.Subject
    typealias Failure = ConformanceChecks.CheckFailure

    /// Three sentences, a question and an exclamation, with letters outside ASCII (marks are in bytes).
    static let text =
        "The lighthouse keeper climbed the stairs at dusk. Was the lamp still burning? Yes, Élodie said, it was!"
    /// How long a cancelled call may go on.
    static let cancelLimit: TimeInterval = 2

    static func speech(_ s: Subject) throws -> SpeechSynthesis? {
        guard let speech = SpeechSynthesis(plugin: s.plugin) else {
            s.note("offers no \(SHELF_EXT_SPEECH)")
            return nil
        }
        return speech
    }

    // MARK: speech-voices

    static func voices(_ s: Subject) throws -> ConformanceResult.Status {
        guard let speech = try speech(s) else { return .passed }
        let voices = try s.call("voices") { try speech.voices() }
        guard !voices.isEmpty else { throw Failure("voices listed no voice: speech.h asks for at least one") }
        if let bad = voices.first(where: {
            $0.id.isEmpty || $0.languages.isEmpty || $0.languages.contains(where: \.isEmpty)
        }) {
            throw Failure(
                "voices: voice \"\(bad.id)\" has \(bad.id.isEmpty ? "no id" : "no language"): each has an id and its BCP 47 languages"
            )
        }
        guard try s.call("voices, again") { try speech.voices() } == voices else {
            throw Failure("voices listed other voices the second time: the list is the same on every call")
        }
        s.note(
            "\(voices.count) voices (\(voices.prefix(3).map(\.id).joined(separator: ", "))\(voices.count > 3 ? ", ..." : ""))"
        )
        return .passed
    }

    // MARK: speech

    /// What one call delivered, as the receiver saw it.
    struct Spoken {
        var format: SpeechSynthesis.Format?
        var frames: Int64 = 0
        var sumOfSquares: Double = 0
        var badSample: Float?
        var formatChanged = false
        var marks: [(mark: SpeechSynthesis.Mark, deliveredAt: Int64)] = []
        var pcmBeforeFormat = false
    }

    static func listen(
        _ speech: SpeechSynthesis, _ text: String, options: String?, stopAfterPCM: Int? = nil,
        onPCM: (() -> Void)? = nil
    ) throws -> (Spoken, SpeechSynthesis.Outcome) {
        var spoken = Spoken()
        var calls = 0
        let outcome = try speech.speak(
            text, options: options,
            into: .init(
                pcm: { samples, format in
                    calls += 1
                    if format.sampleRate == 0 || format.channels == 0 { spoken.pcmBeforeFormat = true }
                    if let known = spoken.format, known != format { spoken.formatChanged = true }
                    spoken.format = spoken.format ?? format
                    for x in samples {
                        if !x.isFinite || abs(x) > 1.5 { spoken.badSample = spoken.badSample ?? x }
                        spoken.sumOfSquares += Double(x) * Double(x)
                    }
                    spoken.frames += Int64(samples.count / max(1, format.channels))
                    onPCM?()
                    return stopAfterPCM.map { calls < $0 } ?? true
                },
                mark: { mark in
                    spoken.marks.append((mark, spoken.frames))
                    return true
                }))
        return (spoken, outcome)
    }

    static func speak(_ s: Subject) throws -> ConformanceResult.Status {
        guard let speech = try speech(s) else { return .passed }
        let what = "speak(\"\(text.prefix(30))...\", {\"language\": \"en\"})"
        let (spoken, outcome) = try s.call(what) { try listen(speech, text, options: "{\"language\":\"en\"}") }
        let format = outcome.format
        guard format.sampleFormat == UInt32(SHELF_AUDIO_SAMPLE_F32), (1...768_000).contains(format.sampleRate),
            (1...16).contains(format.channels)
        else {
            throw Failure(
                "\(what) declared sample format \(format.sampleFormat), \(format.sampleRate) Hz, \(format.channels) channels: "
                    + "speech.h asks for SHELF_AUDIO_SAMPLE_F32 at 1..768000 Hz, 1..16 channels")
        }
        if spoken.pcmBeforeFormat {
            throw Failure(
                "\(what) delivered PCM before it declared its format (fill `format` before the first call of the sink)")
        }
        if spoken.formatChanged {
            throw Failure("\(what) changed its format during the call: it is declared once and kept")
        }
        if let bad = spoken.badSample {
            throw Failure("\(what) delivered the sample \(bad): samples are finite floats, nominally in [-1, 1]")
        }
        let seconds = Double(spoken.frames) / Double(format.sampleRate)
        let words = text.split(separator: " ").count
        // Speech runs at 100 to 400 words a minute: anything far outside is not this text spoken.
        guard seconds >= Double(words) / 8, seconds <= Double(words) / 1.2 + 5 else {
            throw Failure(
                "\(what) delivered \(String(format: "%.2f", seconds)) s of PCM for \(words) words: at \(format.sampleRate) Hz as declared, "
                    + "speech of them lasts \(String(format: "%.1f", Double(words) / 8)) to \(String(format: "%.0f", Double(words) / 1.2)) s"
            )
        }
        let rms = (spoken.sumOfSquares / Double(max(1, spoken.frames * Int64(format.channels)))).squareRoot()
        guard rms > 0.003 else {
            throw Failure("\(what) delivered \(String(format: "%.2f", seconds)) s of silence (RMS \(rms))")
        }
        try checkMarks(spoken, in: text, totalFrames: spoken.frames, sampleRate: format.sampleRate, call: what)
        // An empty text: nothing at all.
        let (empty, _) = try s.call("speak(\"  \")") { try listen(speech, "  ", options: nil) }
        guard empty.frames == 0, empty.marks.isEmpty else {
            throw Failure(
                "speak(\"  \") delivered \(empty.frames) frames and \(empty.marks.count) marks: a text of spaces is SHELF_OK with nothing"
            )
        }
        let sentenceCount = spoken.marks.filter { $0.mark.kind == .sentence }.count
        s.note(
            "\(String(format: "%.2f", seconds)) s at \(format.sampleRate) Hz, \(spoken.marks.count - sentenceCount) word and \(sentenceCount) sentence marks"
        )
        return .passed
    }

    /// speech.h's "Marks": known kinds, inside the text on character boundaries, frames in order and inside the PCM,
    /// never after the PCM that holds them, no overlap within a kind, every word inside a sentence and each
    /// sentence of the text marked.
    static func checkMarks(_ spoken: Spoken, in text: String, totalFrames: Int64, sampleRate: Int, call: String) throws
    {
        let bytes = Array(text.utf8)
        let isBoundary = { (i: Int) in i == bytes.count || (bytes[i] & 0xC0) != 0x80 }
        var lastFrame: Int64 = 0
        var ends: [SpeechSynthesis.Mark.Kind: Int] = [:]
        // A mark may lag the PCM already given by the engine's own rounding: 10 ms.
        let slack = Int64(sampleRate / 100)
        for (i, (mark, deliveredAt)) in spoken.marks.enumerated() {
            let name = "mark \(i + 1) (\(mark.kind.rawValue), bytes \(mark.offset)+\(mark.length), frame \(mark.frame))"
            guard mark.kind != .unknown else { throw Failure("\(call): \(name) is of no kind speech.h defines") }
            guard mark.offset >= 0, mark.length > 0, mark.offset + mark.length <= bytes.count else {
                throw Failure("\(call): \(name) is outside the text of \(bytes.count) bytes")
            }
            guard isBoundary(mark.offset), isBoundary(mark.offset + mark.length) else {
                throw Failure("\(call): \(name) cuts a UTF-8 character: offsets are in bytes, on character boundaries")
            }
            guard mark.frame >= lastFrame else {
                throw Failure(
                    "\(call): \(name) comes before the previous mark's frame \(lastFrame): marks come in order")
            }
            guard mark.frame <= totalFrames else {
                throw Failure("\(call): \(name) is past the \(totalFrames) frames delivered")
            }
            guard mark.frame + slack >= deliveredAt else {
                throw Failure(
                    "\(call): \(name) came after \(deliveredAt) frames were delivered: a mark comes before or with the PCM that holds it"
                )
            }
            guard mark.offset >= ends[mark.kind, default: 0] else {
                throw Failure(
                    "\(call): \(name) starts before the previous \(mark.kind.rawValue) ends (byte \(ends[mark.kind, default: 0])): marks of one kind do not overlap"
                )
            }
            ends[mark.kind] = mark.offset + mark.length
            lastFrame = mark.frame
        }
        let words = spoken.marks.map(\.mark).filter { $0.kind == .word }
        let sentences = spoken.marks.map(\.mark).filter { $0.kind == .sentence }
        let textWords = text.split(whereSeparator: \.isWhitespace).count
        guard words.count * 2 >= textWords else {
            throw Failure(
                "\(call): \(words.count) word marks for the \(textWords) words of the text: every word gets one")
        }
        guard !sentences.isEmpty else { throw Failure("\(call): no sentence mark: every sentence gets one") }
        if let loose = words.first(where: { w in
            !sentences.contains { $0.offset <= w.offset && w.offset + w.length <= $0.offset + $0.length }
        }) {
            throw Failure("\(call): the word at bytes \(loose.offset)+\(loose.length) is in no sentence mark")
        }
    }

    // MARK: speech-arguments

    static func arguments(_ s: Subject) throws -> ConformanceResult.Status {
        guard let speech = try speech(s) else { return .passed }
        let cases: [(options: String, status: shelf_status, mentions: String?)] = [
            ("{\"voice\": \"en\",}", SHELF_E_INVALID_ARGUMENT, nil),
            ("{\"rate\": \"fast\"}", SHELF_E_INVALID_ARGUMENT, "rate"),
            ("{\"voice\": \"org.example.no-such-voice\"}", SHELF_E_NOT_FOUND, "no-such-voice")
        ]
        for c in cases {
            let what = "speak(\"Hello.\", \(c.options))"
            do {
                _ = try s.call(what) { try listen(speech, "Hello.", options: c.options) }
                throw Failure(
                    "\(what) succeeded: it must fail with \(PluginCallError.name(of: c.status)) and a message")
            } catch let refused as PluginCallError {
                guard refused.status == c.status, !refused.message.isEmpty else {
                    throw Failure(
                        "\(what) failed with \(PluginCallError.name(of: refused.status)) \"\(refused.message)\": expected \(PluginCallError.name(of: c.status)) with a message"
                    )
                }
                if let word = c.mentions, !(refused.message + refused.location).contains(word) {
                    throw Failure("\(what) failed saying \"\(refused.message)\", which does not name \(word)")
                }
            }
        }
        return .passed
    }

    // MARK: speech-cancel

    /// A long text, stopped by the sink after its first PCM and then by the host's cancellation: each time the call
    /// returns SHELF_E_CANCELLED at once and the sink hears nothing more.
    static func cancel(_ s: Subject) throws -> ConformanceResult.Status {
        guard let speech = try speech(s) else { return .passed }
        let long = Array(repeating: text, count: 40).joined(separator: " ")
        let what = "speak(a text of \(long.utf8.count) bytes) told to stop by its sink after the first PCM"
        let started = Date()
        do {
            let (_, outcome) = try s.call(what) { try listen(speech, long, options: nil, stopAfterPCM: 1) }
            throw Failure(
                "\(what) returned SHELF_OK after \(outcome.callsAfterStop) more calls of the sink: it returns SHELF_E_CANCELLED"
            )
        } catch let stopped as SpeechSynthesis.Stopped {
            guard stopped.callsAfterStop == 0 else {
                throw Failure(
                    "\(what) called the sink \(stopped.callsAfterStop) more times after it answered SHELF_E_CANCELLED: call it no more"
                )
            }
        } catch let failed as PluginCallError {
            throw Failure(
                "\(what) failed with \(PluginCallError.name(of: failed.status)): a call its sink stopped returns SHELF_E_CANCELLED"
            )
        }
        if Date().timeIntervalSince(started) > cancelLimit {
            throw Failure(
                "\(what) took \(String(format: "%.1f", Date().timeIntervalSince(started))) s to return: stop at once")
        }
        // The host's own cancellation (is_cancelled), set while the sink goes on accepting.
        let token = CallCancellation()
        var framesAfterCancel: Int64 = 0
        var cancelled = false
        let hostWhat = "speak(a text of \(long.utf8.count) bytes) cancelled by the host after the first PCM"
        let hostStarted = Date()
        do {
            let (spoken, _) = try s.call(hostWhat) {
                try token.during {
                    try listen(
                        speech, long, options: nil,
                        onPCM: {
                            if cancelled { framesAfterCancel += 1 }
                            if !cancelled { cancelled = true; token.cancel() }
                        })
                }
            }
            throw Failure(
                "\(hostWhat) spoke all \(spoken.frames) frames: poll shelf_host.is_cancelled and return SHELF_E_CANCELLED"
            )
        } catch let failed as PluginCallError {
            guard failed.status == SHELF_E_CANCELLED else {
                throw Failure(
                    "\(hostWhat) failed with \(PluginCallError.name(of: failed.status)): a cancelled call returns SHELF_E_CANCELLED"
                )
            }
        }
        let took = Date().timeIntervalSince(hostStarted)
        guard took <= cancelLimit else {
            throw Failure(
                "\(hostWhat) took \(String(format: "%.1f", took)) s to return: poll shelf_host.is_cancelled between pieces of work"
            )
        }
        s.note("stopped by the sink and by the host; \(framesAfterCancel) PCM calls after the host's cancellation")
        return .passed
    }
}
