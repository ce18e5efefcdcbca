internal import ShelfPlayback
internal import ShelfReader
import Foundation

/// A chapter of a book read aloud as a player outside the host (the browser's audio element) plays it: the book's
/// reading-order item it speaks, and how much of it is spoken so far. A track is spoken ahead of playback, so a
/// player plays what is there (`spokenAudio`) and asks again for more.
public struct SpokenTrack: Sendable, Equatable {
    public let index: Int
    /// The book's reading-order item the track speaks.
    public let href: String
    public let title: String?
    /// Seconds spoken so far (all of them once `complete`).
    public let seconds: Double
    public let frames: Int64
    public let complete: Bool
}

/// A sentence of a track and when it is heard, in seconds into its track, for a player following the text.
public struct SpokenSentence: Sendable, Equatable {
    public let time: Double
    /// Bytes into the chapter's text as read aloud, and how far into that text it starts (0…1).
    public let offset: Int
    public let length: Int
    public let progression: Double
    public let text: String
}

/// The first `dataBytes` of a track's sound as a WAV file of its own: `header` (its sizes saying that many bytes),
/// then bytes 44..<44+dataBytes of `file`. A track still being spoken says "until the end of the file" in its own
/// header; a player given a part of it must be told the part's true size, or it waits for sound that is not there.
public struct SpokenAudio: Sendable {
    public let file: URL
    public let header: Data
    public let dataBytes: Int
    public var size: Int { header.count + dataBytes }
}

extension ListeningSession {
    /// The tracks of a book read aloud, from the one listening started in; nil for an audiobook.
    public var spokenTracks: [SpokenTrack]? {
        guard let readAloud else { return nil }
        let recorder = readAloud.recorder
        let rate = Double(recorder.sampleRate ?? 22050)
        return (recorder.start.chapter..<recorder.chapters.count).map { index in
            let frames = recorder.tracks.frames(of: index)
            return SpokenTrack(
                index: index, href: recorder.chapters[index].href, title: recorder.chapters[index].title,
                seconds: Double(frames) / rate, frames: frames, complete: recorder.tracks.isComplete(index))
        }
    }

    /// The sentences of a track heard so far, from the `from`th on (a player asks for the ones it lacks).
    public func spokenSentences(track: Int, from first: Int = 0) -> [SpokenSentence] {
        guard let recorder = readAloud?.recorder, recorder.chapters.indices.contains(track),
            let text = try? recorder.text(of: track)
        else { return [] }
        let rate = Double(recorder.sampleRate ?? 22050)
        let length = Double(max(1, text.text.utf8.count))
        let sentences = recorder.tracks.marks(of: track).filter { $0.kind == "sentence" }
        guard first < sentences.count else { return [] }
        return sentences[max(0, first)...].map { mark in
            SpokenSentence(
                time: Double(mark.frame) / rate, offset: mark.offset, length: mark.length,
                progression: min(1, Double(mark.offset) / length), text: text.slice(mark.offset, mark.length))
        }
    }

    /// The sound of a track spoken so far, up to `frames` (all of it when nil), as a WAV file's bytes; nil when the
    /// track is not one of this session's or nothing of it is spoken yet.
    public func spokenAudio(track: Int, frames wanted: Int64?) -> SpokenAudio? {
        guard let recorder = readAloud?.recorder, track >= recorder.start.chapter,
            recorder.chapters.indices.contains(track)
        else { return nil }
        let spoken = recorder.tracks.frames(of: track)
        let complete = recorder.tracks.isComplete(track)
        let file = recorder.tracks.path(of: track)
        guard spoken > 0 || complete, let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        // Only read: closing cannot lose anything.
        defer { try? handle.close() }
        guard var header = try? handle.read(upToCount: 44), header.count == 44 else { return nil }
        let blockAlign = Int(header[32]) | Int(header[33]) << 8
        let frames = min(max(0, wanted ?? spoken), spoken)
        let dataBytes = Int(frames) * max(1, blockAlign)
        func put(_ value: UInt32, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<offset + 4, with: $0) }
        }
        put(UInt32(clamping: dataBytes + 36), at: 4)
        put(UInt32(clamping: dataBytes), at: 40)
        return SpokenAudio(file: file, header: header, dataBytes: dataBytes)
    }

    /// Saves the sentence heard at `seconds` into `track` (a player outside the host reached it) as the book's
    /// reading place, as listening in the terminal does, and publishes where listening is.
    public func reportSpokenPosition(track: Int, seconds: Double, playing: Bool) throws {
        guard let readAloud, readAloud.recorder.chapters.indices.contains(track) else { return }
        let frame = Int64(max(0, seconds) * Double(readAloud.recorder.sampleRate ?? 22050))
        let timeline = engine.timeline
        let global = timeline.global(track: track, offset: frame)
        if let id = readAloud.shelfID, let locator = readAloud.locator(track: track, frame: frame) {
            try readAloud.database.saveListeningPlace(
                bookID: id, locator: locator.jsonString(), seconds: timeline.seconds(global), duration: nil)
        }
        shelf.events.publish(.listening(bookID: bookID, position: timeline.seconds(global), playing: playing))
    }
}
