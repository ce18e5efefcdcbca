import Foundation
import Glibc
import Host

/// `shelf play`'s live position on a terminal: one line on stderr, redrawn in place every half second and at each
/// chapter, cleared before the closing line. Never drawn into a pipe or a file (scripts read the closing line).
/// Unchecked Sendable: `stopped` is read and written under `lock`; the session is safe from several threads itself.
final class LivePosition: @unchecked Sendable {
    private let session: ListeningSession
    private let lock = NSLock()
    private var stopped = false

    init(session: ListeningSession) { self.session = session }

    /// Whether there is a person's terminal to draw on (`environment` is the host's, read once).
    static func isWanted(environment: [String: String]) -> Bool {
        isatty(STDERR_FILENO) != 0 && environment["TERM"] != "dumb"
    }

    /// "0:12 of 0:42, chapter 2 of 3, Two; 0:15 left at 2x": what is left is listening time at the speed chosen.
    static func line(_ state: PlaybackState, chapters: Int) -> String {
        var text = PlaybackTime.clock(state.position) + (state.duration.map { " of \(PlaybackTime.clock($0))" } ?? "")
        if let c = state.chapter, let title = state.chapterTitle {
            text += ", chapter \(c + 1) of \(chapters), \(title)"
        }
        let speed = max(state.speed, 0.01)
        if let duration = state.duration {
            text += "; \(PlaybackTime.clock(max(0, duration - state.position) / speed)) left"
            if speed != 1 { text += " at \(String(format: "%g", speed))x" }
        } else {
            text += "; \(PlaybackState.lengthUnknown)"
        }
        if let waiting = state.waitingFor { text += "; waiting for \(waiting) to download" }
        return text
    }

    func start() {
        draw()
        Thread.detachNewThread { [self] in
            while lock.withLock({ !stopped }) {
                Thread.sleep(forTimeInterval: 0.5)
                draw()
            }
        }
    }

    func draw() {
        // A book read aloud shows the sentence being heard.
        let text =
            session.spokenSentence.map { "\(PlaybackTime.clock(session.state.position)) \($0)" }
            ?? Self.line(session.state, chapters: session.chapters.count)
        lock.withLock {
            guard !stopped else { return }
            Output.standardError("\r" + fit(text) + "\u{1B}[K", flush: true)
        }
    }

    /// Clears the line (for a message, or for good with `stop`).
    func clear() { lock.withLock { if !stopped { Output.standardError("\r\u{1B}[K") } } }

    func stop() {
        lock.withLock {
            if !stopped { Output.standardError("\r\u{1B}[K", flush: true) }
            stopped = true
        }
    }

    /// Cut to the terminal's width: a wrapped line could not be redrawn in place.
    private func fit(_ text: String) -> String {
        var size = winsize()
        let columns = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 1 ? Int(size.ws_col) - 1 : 79
        return text.count > columns ? String(text.prefix(columns)) : text
    }
}
