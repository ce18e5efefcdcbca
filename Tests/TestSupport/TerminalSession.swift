import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The built `shelf` driven as a person at a terminal drives it: stdin, stdout and stderr on one pseudo-terminal
/// that is its controlling terminal (so resizing it sends SIGWINCH), keys typed into it, and the screen read back.
/// For interactive commands (`shelf read BOOK` on a terminal, `shelf remove` asking before it removes).
public final class TerminalSession {
    public let process = Process()
    private let master: Int32
    private let lock = NSLock()
    private var received = Data()
    private let reader = DispatchGroup()

    /// Starts `shelf arguments` on a new terminal of `columns` × `rows`.
    public init(_ arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24) throws {
        let (master, slave) = try PseudoTerminal.open()
        self.master = master
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        // setsid --ctty --wait: a session of its own whose controlling terminal is this one, as a login shell's child has.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--ctty", "--wait", ShelfProcess.executable.path] + arguments
        process.environment = environment
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        let fd = master
        DispatchQueue.global().async(group: reader) { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }  // EIO once the last writer closed the terminal
                guard let self else { break }
                self.lock.withLock { self.received.append(contentsOf: buffer[..<count]) }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Everything the terminal has shown so far, as text (escape sequences included).
    public var output: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// What arrived after `offset` bytes; `mark` is where the output ends now.
    public var mark: Int { lock.withLock { received.count } }
    public func output(since offset: Int) -> String {
        lock.withLock { String(decoding: received[min(offset, received.count)...], as: UTF8.self) }
    }

    /// Types `text` (keys as the terminal sends them: "\u{1B}[C" is the right arrow).
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, bytes.count) }
    }

    /// Waits until the output after `offset` holds `text`; false after `timeout` seconds.
    @discardableResult
    public func wait(for text: String, since offset: Int = 0, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output(since: offset).contains(text) { return true }
            if !process.isRunning && !output(since: offset).contains(text) {
                Thread.sleep(forTimeInterval: 0.05)
                return output(since: offset).contains(text)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Resizes the terminal: the kernel tells the program with SIGWINCH.
    public func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Waits for the program to end; its exit status, or nil when it did not end within `timeout` (it is then
    /// killed).
    public func finish(timeout: TimeInterval = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        _ = reader.wait(timeout: .now() + 2)
        return process.terminationStatus
    }
}
