import Foundation
import Glibc
import Host

/// A key as the interactive commands (`shelf listen`, `shelf read` on a terminal) understand it.
enum Key: Equatable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, backspace, escape
    /// The terminal changed size (SIGWINCH): redraw.
    case resized

    /// The key as a patron names it ("x", "space", "up arrow"); nil for what no one pressed (a resize).
    var name: String? {
        switch self {
        case .character(" "): return "space"
        case .character(let c):
            return c.isLetter || c.isNumber || c.isPunctuation || c.isSymbol
                ? String(c) : "U+\(String(c.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true))"
        case .up: return "up arrow"
        case .down: return "down arrow"
        case .left: return "left arrow"
        case .right: return "right arrow"
        case .pageUp: return "Page Up"
        case .pageDown: return "Page Down"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .backspace: return "Backspace"
        case .escape: return "Escape"
        case .resized: return nil
        }
    }
}

/// The keyboard of an interactive command: the terminal in raw mode (each key at once, not echoed; Ctrl-C still
/// interrupts), its escape sequences read as keys, and a resize of the terminal delivered as a key too, so that one
/// loop handles everything. Without a terminal (a pipe in tests), bytes are read as they come.
final class TerminalKeys {
    let fd: Int32
    let isTerminal: Bool
    private var saved = termios()
    private var pending: [UInt8] = []

    /// Set from the SIGWINCH handler; read by `next()`.
    nonisolated(unsafe) private static var resizedFlag: sig_atomic_t = 0

    init(fd: Int32 = STDIN_FILENO, watchResize: Bool = false) {
        self.fd = fd
        isTerminal = isatty(fd) != 0
        if isTerminal {
            tcgetattr(fd, &saved)
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(fd, TCSANOW, &raw)
        }
        if watchResize {
            signal(SIGWINCH) { _ in TerminalKeys.resizedFlag = 1 }
        }
    }

    /// Puts the terminal back as it was.
    func restore() {
        if isTerminal { tcsetattr(fd, TCSANOW, &saved) }
    }

    deinit { restore() }

    /// The next key; nil at the end of input, when Ctrl-C asked shelf to stop, or once `stop` says so (asked each
    /// tenth of a second while no key comes: a player whose playback ended on an error ends without a key).
    func next(stop: () -> Bool = { false }) -> Key? {
        while true {
            if Shelf.interruptRequested || stop() { return nil }
            if Self.resizedFlag != 0 {
                Self.resizedFlag = 0
                return .resized
            }
            if pending.isEmpty {
                guard let byte = readByte(waitingMilliseconds: 100) else { continue }
                guard byte >= 0 else { return nil }
                pending.append(UInt8(byte))
            }
            let first = pending.removeFirst()
            if first == 0x1B { return escapeSequence() }
            return Self.plain(first, then: { self.readByte(waitingMilliseconds: 50) })
        }
    }

    /// A key that is not an escape sequence; the rest of a UTF-8 character is read with it.
    private static func plain(_ byte: UInt8, then more: () -> Int?) -> Key {
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        default: break
        }
        var bytes = [byte]
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        while bytes.count < length, let next = more(), next >= 0 { bytes.append(UInt8(next)) }
        return .character(String(decoding: bytes, as: UTF8.self).first ?? " ")
    }

    /// ESC [ A … (and ESC O A …, ESC [ 5 ~ …); a lone ESC, with nothing after it at once, is the Escape key.
    private func escapeSequence() -> Key {
        guard let second = readByte(waitingMilliseconds: 50), second >= 0 else { return .escape }
        guard second == 0x5B || second == 0x4F else {  // [ or O
            pending.insert(UInt8(second), at: 0)
            return .escape
        }
        var body: [UInt8] = []
        while let byte = readByte(waitingMilliseconds: 50), byte >= 0 {
            body.append(UInt8(byte))
            if (0x40...0x7E).contains(byte) { break }  // the final byte of a control sequence
        }
        switch String(decoding: body, as: UTF8.self) {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H", "1~", "7~": return .home
        case "F", "4~", "8~": return .end
        case "5~": return .pageUp
        case "6~": return .pageDown
        default: return .escape
        }
    }

    /// One byte: nil when none came within the wait, -1 at the end of input.
    private func readByte(waitingMilliseconds wait: Int32) -> Int? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, wait)
        if ready < 0 { return errno == EINTR ? nil : -1 }
        if ready == 0 { return nil }
        var byte: UInt8 = 0
        let n = read(fd, &byte, 1)
        if n < 0 { return errno == EINTR || errno == EAGAIN ? nil : -1 }
        if n == 0 { return -1 }
        return Int(byte)
    }
}
