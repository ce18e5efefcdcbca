// stdout is a C variable set before main and never reassigned; stdio locks the stream in each call.
// (Before Foundation, which would bring Glibc in without @preconcurrency.)
@preconcurrency import Glibc
import Foundation

/// The child side of a conformance check (`shelf conformance-check`): which plugin call is running, what the
/// plugin printed during it, and, when it crashes, a report on a channel of its own for the runner.
///
/// The crash report is written by a signal handler, so everything it touches is made beforehand: the call's
/// description lives in a fixed buffer, the file is open, and `backtrace` is resolved (glibc's execinfo, not
/// in Swift's Glibc module). The child runs one check on one thread, and a signal handler cannot take a lock, so
/// this state is `nonisolated(unsafe)`: written by `begin` before the handler is installed, read by the handler.
enum ConformanceCall {
    private static let capacity = 2048
    nonisolated(unsafe) private static let describing: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()
    nonisolated(unsafe) private static var crashFD: Int32 = -1
    private typealias BacktraceFunction =
        @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
    private typealias SymbolsFunction = @convention(c) (UnsafePointer<UnsafeMutableRawPointer?>?, Int32, Int32) -> Void
    nonisolated(unsafe) private static var backtrace: BacktraceFunction?
    nonisolated(unsafe) private static var backtraceSymbols: SymbolsFunction?
    nonisolated(unsafe) private static let frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(
        capacity: 64)

    /// Standard output, redirected into a file while the check runs: a plugin must never print.
    nonisolated(unsafe) private static var printed: Int32 = -1
    nonisolated(unsafe) private static var savedStdout: Int32 = -1

    /// Prepares the crash report into `path` and the watch on standard output.
    static func begin(crashReport path: String?) {
        _ = describing
        if let path {
            crashFD = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "backtrace") {
                backtrace = unsafeBitCast(symbol, to: BacktraceFunction.self)
            }
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "backtrace_symbols_fd") {
                backtraceSymbols = unsafeBitCast(symbol, to: SymbolsFunction.self)
            }
            for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
                _ = Glibc.signal(signal, crashed)
            }
        }
        fflush(stdout)
        var template = Array((NSTemporaryDirectory() + "/shelf-conformance-stdout-XXXXXX").utf8CString)
        printed = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if printed >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            savedStdout = dup(STDOUT_FILENO)
            dup2(printed, STDOUT_FILENO)
        }
    }

    /// Puts standard output back (the check's own result goes elsewhere, but a person may run the child).
    static func end() {
        fflush(stdout)
        if savedStdout >= 0 { dup2(savedStdout, STDOUT_FILENO) }
    }

    /// Runs one call into the plugin under `description` ("render(chapter-2.md, {"as":"html"}) of book.txt"):
    /// a crash names it, and so does a failure when the plugin printed during it.
    static func run<T>(_ description: String, _ body: () throws -> T) throws -> T {
        let before = printedSize()
        set(description)
        defer { set("") }
        let result = try body()
        fflush(stdout)
        let after = printedSize()
        if after > before {
            throw ConformanceChecks.CheckFailure(
                "\(description) printed \(after - before) bytes to standard output (\(excerpt(from: before))): a plugin never prints"
                    + " (plugin.h); output on stdout corrupts `shelf info --json`. Log through shelf_host.log")
        }
        return result
    }

    /// Records the call in flight, in memory for the signal handler and in the crash channel, so that a check
    /// the runner kills (a hang) still names it.
    private static func set(_ text: String) {
        var bytes = Array(text.utf8.prefix(capacity - 2))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { describing.update(from: $0.baseAddress!, count: $0.count) }
        }
        if crashFD >= 0 {
            let line = Array("call: \(text)\n".utf8)
            _ = ftruncate(crashFD, 0)
            _ = line.withUnsafeBytes { pwrite(crashFD, $0.baseAddress, $0.count, 0) }
        }
    }

    private static func printedSize() -> Int {
        var info = stat()
        return printed >= 0 && fstat(printed, &info) == 0 ? Int(info.st_size) : 0
    }

    private static func excerpt(from offset: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: 120)
        let n = pread(printed, &bytes, bytes.count, off_t(offset))
        return "\""
            + String(decoding: bytes.prefix(max(0, n)), as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
            + "\""
    }

    /// The signal handler: the call, then the frames (one "object(+offset) [address]" a line, which the
    /// runner turns into file:line), then the default action, so the runner still sees the signal.
    private static let crashed: @convention(c) (Int32) -> Void = { signal in
        let fd = ConformanceCall.crashFD
        if fd >= 0 {
            let describing = ConformanceCall.describing
            _ = ftruncate(fd, 0)
            _ = lseek(fd, 0, SEEK_SET)
            _ = write(fd, "call: ", 6)
            _ = write(fd, describing, strlen(describing))
            _ = write(fd, "\n", 1)
            if let backtrace = ConformanceCall.backtrace, let symbols = ConformanceCall.backtraceSymbols {
                let count = backtrace(ConformanceCall.frames, 64)
                symbols(ConformanceCall.frames, count, fd)
            }
        }
        _ = Glibc.signal(signal, SIG_DFL)
        _ = raise(signal)
    }
}
