import ShelfValues
import ShelfCore
import Foundation
import PluginAPI
import Readium

/// A plugin's `shelf.speech/1` (speech.h): its voices, and text spoken into PCM and marks. The host's one way into
/// a speech plugin: the listening session's synthesis and the conformance checks both call through here.
/// Unchecked Sendable: it holds only constants (the plugin and its table); `plugin.call` serialises the calls of a
/// plugin that does not allow concurrent ones.
public final class SpeechSynthesis: @unchecked Sendable {
    public let plugin: LoadedPlugin
    let table: UnsafePointer<shelf_speech_v1>

    /// A voice as the plugin describes it.
    public struct Voice: Codable, Sendable, Equatable {
        public let id: String
        public let name: String?
        public let languages: [String]
        public let gender: String?
    }

    /// One word or sentence: bytes of the text spoken, and the frame of the call's PCM where it starts.
    public struct Mark: Sendable, Equatable {
        public enum Kind: String, Sendable, Codable { case word, sentence, unknown }
        public let kind: Kind
        public let offset: Int
        public let length: Int
        public let frame: Int64
    }

    /// The PCM format a call declared.
    public struct Format: Sendable, Equatable {
        public let sampleRate: Int
        public let channels: Int
        public let sampleFormat: UInt32
    }

    /// The speech capability of `plugin`, or nil when it offers none.
    public init?(plugin: LoadedPlugin) {
        guard let table = plugin.extensionTable(SHELF_EXT_SPEECH, minimumSize: MemoryLayout<shelf_speech_v1>.size)
        else { return nil }
        self.plugin = plugin
        self.table = table.assumingMemoryBound(to: shelf_speech_v1.self)
    }

    public func voices() throws -> [Voice] {
        let data = try PluginCall.collect(plugin) { out, err in table.pointee.voices?(out, err) ?? SHELF_E_UNSUPPORTED }
        do {
            return try JSONDecoder().decode([Voice].self, from: data)
        } catch {
            throw ShelfError(
                .software,
                "the speech plugin \(plugin.descriptor.id) listed its voices in a shape speech.h does not describe (\(error))"
            )
        }
    }

    /// What receives one call's output; each closure answers false to stop the plugin (SHELF_E_CANCELLED).
    public struct Receiver {
        public var pcm: (UnsafeBufferPointer<Float>, Format) -> Bool
        public var mark: (Mark) -> Bool
        public init(pcm: @escaping (UnsafeBufferPointer<Float>, Format) -> Bool, mark: @escaping (Mark) -> Bool) {
            self.pcm = pcm
            self.mark = mark
        }
    }

    /// The state a call's sink reaches through its context pointer.
    private final class Call {
        let receiver: Receiver
        let format: UnsafeMutablePointer<shelf_audio_format>
        var stopped = false
        /// A call of the sink after it answered "stop": the plugin went on (speech.h forbids it).
        var callsAfterStop = 0
        init(_ receiver: Receiver, _ format: UnsafeMutablePointer<shelf_audio_format>) {
            self.receiver = receiver
            self.format = format
        }
        var declared: Format {
            Format(
                sampleRate: Int(format.pointee.sample_rate), channels: Int(format.pointee.channels),
                sampleFormat: format.pointee.sample_format)
        }
    }

    /// What a call did beside its output: the format it declared and whether it called the sink after being told
    /// to stop (conformance reads it).
    public struct Outcome: Sendable {
        public let format: Format
        public let callsAfterStop: Int
    }

    /// The receiver asked the call to stop and it did (SHELF_E_CANCELLED); `callsAfterStop` counts the sink calls it
    /// made after being told (none, for a plugin that keeps speech.h).
    public struct Stopped: Error, Sendable {
        public let callsAfterStop: Int
    }

    /// Speaks `text` with `options` (a JSON object, speech.h), delivering to `receiver` as the plugin goes. Throws
    /// the plugin's error; a stop the receiver asked for is `Stopped`.
    @discardableResult
    public func speak(_ text: String, options: String?, sampleRate: Int = 0, into receiver: Receiver) throws -> Outcome
    {
        let format = UnsafeMutablePointer<shelf_audio_format>.allocate(capacity: 1)
        defer { format.deallocate() }
        format.initialize(to: shelf_audio_format())
        format.pointee.struct_size = UInt32(MemoryLayout<shelf_audio_format>.size)
        format.pointee.sample_rate = UInt32(clamping: sampleRate)
        let call = Call(receiver, format)
        let context = Unmanaged.passUnretained(call).toOpaque()
        var sink = shelf_speech_sink(
            context: context,
            pcm: { context, samples, frames in
                let call = Unmanaged<Call>.fromOpaque(context!).takeUnretainedValue()
                guard !call.stopped else { call.callsAfterStop += 1; return SHELF_E_CANCELLED }
                let channels = max(1, Int(call.format.pointee.channels))
                guard let samples, frames > 0 else { return SHELF_OK }
                if !call.receiver.pcm(UnsafeBufferPointer(start: samples, count: frames * channels), call.declared) {
                    call.stopped = true
                    return SHELF_E_CANCELLED
                }
                return SHELF_OK
            },
            mark: { context, mark in
                let call = Unmanaged<Call>.fromOpaque(context!).takeUnretainedValue()
                guard !call.stopped else { call.callsAfterStop += 1; return SHELF_E_CANCELLED }
                guard let mark else { return SHELF_E_INVALID_ARGUMENT }
                let kind: Mark.Kind =
                    switch mark.pointee.kind {
                    case UInt32(SHELF_SPEECH_MARK_WORD): .word
                    case UInt32(SHELF_SPEECH_MARK_SENTENCE): .sentence
                    default: .unknown
                    }
                let value = Mark(
                    kind: kind, offset: Int(clamping: mark.pointee.text_offset),
                    length: Int(clamping: mark.pointee.text_length),
                    frame: mark.pointee.frame)
                if !call.receiver.mark(value) {
                    call.stopped = true
                    return SHELF_E_CANCELLED
                }
                return SHELF_OK
            })
        var error = PluginCall.newError()
        let status = plugin.call {
            text.withCString { cText in
                withOptionalCString(options) { cOptions in table.pointee.speak(cText, cOptions, format, &sink, &error) }
            }
        }
        if status == SHELF_E_CANCELLED, call.stopped {
            throw Stopped(callsAfterStop: call.callsAfterStop)
        }
        try PluginCall.check(status, &error, plugin)
        return Outcome(format: call.declared, callsAfterStop: call.callsAfterStop)
    }
}
