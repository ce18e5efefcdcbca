import ShelfCore
import CPluginChannel
import Foundation
import Glibc
import Synchronization

/// One process of shelf-plugin-sandbox running one plugin, and the channel to it. Calls are made one at a time
/// (the caller holds its RemotePlugin's lock); while a call runs, the child's log lines and service requests are
/// answered here, Ctrl-C or the call's own cancellation is passed on, and a child silent for longer than the
/// deadline is killed. Once ended (crashed, exited, killed), every call fails with why.
final class PluginChild {
    let pid: pid_t
    private let fd: Int32
    /// Why the child is gone, once it is.
    private(set) var end: End?
    /// Whether the plugin's init ran in this process.
    var initialised = false

    enum End: Error, CustomStringConvertible {
        case crashed(signal: Int32)
        case exited(status: Int32)
        case hung(seconds: Int)
        case overran(seconds: Int)
        case cancelled
        case broken(String)

        /// The verb phrase of the one line: "crashed (signal 11, SIGSEGV)".
        var description: String {
            switch self {
            case .crashed(let signal):
                return "crashed (signal \(signal)\(Self.signalName(signal).map { ", \($0)" } ?? ""))"
            case .exited(let status): return "exited (status \(status))"
            case .hung(let seconds): return "hung (no answer within \(seconds) s; stopped)"
            case .overran(let seconds):
                return "ran longer than \(seconds) s, the limit of one call (SHELF_PLUGIN_CALL_LIMIT); stopped"
            case .cancelled: return "went on after it was cancelled (stopped)"
            case .broken(let why): return "broke its channel to shelf (\(why))"
            }
        }

        static func signalName(_ signal: Int32) -> String? {
            [
                SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGTERM: "SIGTERM"
            ][signal]
        }
    }

    /// What shelf does with the requests a child makes during a call: answers (a reply's fields, and a descriptor
    /// to pass after it, which is then closed here) or nil for none.
    typealias ServiceAnswerer = (ChannelMessage) -> (fields: [ChannelField], passing: Int32?)?

    /// The files this child was confined to read besides the plugin's own (the books it was started for): the
    /// companion files it asks for must belong to one of them.
    private(set) var inputs: [String] = []
    /// Where this child's HTTP requests may go: set when a connection is made in it (ConnectorReach).
    var reach = ConnectorReach(settings: nil, description: nil)
    /// The handles (publications, decoders, connections) that live in this child: one without any may be stopped.
    let handles = Atomic<Int>(0)

    private init(pid: pid_t, fd: Int32) {
        self.pid = pid
        self.fd = fd
    }

    deinit {
        close(fd)
        if end == nil {
            // Closing the channel ends the child's loop; a child that does not go is killed.
            reap(waitingUpTo: 0.5)
        }
    }

    /// Starts the sandbox executable with the channel as its descriptor 3 and /dev/null for its standard streams
    /// (a plugin never prints; with SHELF_LOG=debug its standard error is shelf's). The child gets a clean
    /// environment (`childEnvironment`), never the `Shelf`'s own. It is started from shelf's launcher thread, so
    /// that it ends with shelf, not with the thread that asked for it (ChildLauncher).
    static func start(executable: String, environment given: [String: String], inputs: [String] = []) throws
        -> PluginChild
    {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw ShelfError(
                .unavailable, "cannot make a channel for a plugin process: \(String(cString: strerror(errno)))")
        }
        var childEnd = fds[1]
        if childEnd == SHELF_CHANNEL_CHILD_FD {
            // dup2 onto itself would leave close-on-exec set.
            childEnd = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
            close(fds[1])
        }
        defer { close(childEnd) }
        // Heap-held: the spawn runs on the launcher's thread (ChildLauncher), which outlives this call's.
        let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        posix_spawn_file_actions_init(actions)
        defer {
            posix_spawn_file_actions_destroy(actions)
            actions.deallocate()
        }
        posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(actions, 1, "/dev/null", O_WRONLY, 0)
        if given["SHELF_LOG"] != "debug" {
            posix_spawn_file_actions_addopen(actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(actions, childEnd, SHELF_CHANNEL_CHILD_FD)
        let environ = childEnvironment(given).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environ.forEach { free($0) } }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { argv.forEach { free($0) } }
        let pid = UnsafeMutablePointer<pid_t>.allocate(capacity: 1)
        pid.initialize(to: 0)
        defer { pid.deallocate() }
        let spawned = ChildLauncher.shared.run { posix_spawn(pid, executable, actions, nil, argv, environ) }
        guard spawned == 0 else {
            close(fds[0])
            throw ShelfError(
                .unavailable, "cannot start the plugin sandbox \(executable): \(String(cString: strerror(spawned)))",
                hint: "Reinstall shelf, or run the plugin in shelf itself with SHELF_PLUGINS_IN_PROCESS=ID.")
        }
        let child = PluginChild(pid: pid.pointee, fd: fds[0])
        child.inputs = inputs
        return child
    }

    /// What a plugin's process finds in its environment: the locale and time zone, a plain PATH, and where the
    /// libraries are; nothing else of shelf's (a password given to `shelf serve` in its environment reached every
    /// plugin). The plugin's folders come through its `shelf_host`, as plugin.h documents.
    static func childEnvironment(_ given: [String: String]) -> [String: String] {
        var environment = given.filter { key, _ in
            key == "LANG" || key == "LANGUAGE" || key.hasPrefix("LC_") || key == "TZ"
        }
        environment["PATH"] = "/usr/bin:/bin"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // A plugin written in Swift names its runtime without a path (shelf had it loaded already): the child,
        // written in C, finds it where shelf's own is.
        environment["LD_LIBRARY_PATH"] =
            (SandboxExecutable.runtimeFolders + [given["LD_LIBRARY_PATH"]].compactMap { $0 })
            .filter { !$0.isEmpty }.joined(separator: ":")
        if environment["LANG"] == nil, environment["LC_ALL"] == nil { environment["LANG"] = "C.UTF-8" }
        return environment
    }

    /// Sends a request and waits for its reply, answering the child's own requests meanwhile. `deadline` is how
    /// long the child may stay silent (a log line, progress or a service request counts as an answer), `limit` how
    /// long the whole call may take. A cancellation (Ctrl-C, or the call's own) is passed on at once, however busy
    /// the child is; a child that has not answered `cancelGrace` later is stopped.
    func call(
        _ op: shelf_channel_op, _ fields: [ChannelField], deadline: TimeInterval, limit: TimeInterval,
        services: ServiceAnswerer
    ) throws -> ChannelMessage {
        if let end { throw end }
        guard ChannelField.send(fd, op.rawValue, fields) else { throw ended() }
        let started = DispatchTime.now()
        var cancelSent: DispatchTime?
        var lastHeard = started
        func seconds(since time: DispatchTime) -> Double {
            Double(DispatchTime.now().uptimeNanoseconds - time.uptimeNanoseconds) / 1e9
        }
        while true {
            if cancelSent == nil, CallCancellation.isCurrentCallCancelled {
                guard ChannelField.send(fd, UInt32(SHELF_OP_CANCEL.rawValue), []) else { throw ended() }
                cancelSent = DispatchTime.now()
            }
            if let cancelSent, seconds(since: cancelSent) >= Self.cancelGrace { throw stop(as: .cancelled) }
            if seconds(since: started) >= limit { throw stop(as: .overran(seconds: Int(limit.rounded()))) }
            if seconds(since: lastHeard) >= deadline { throw stop(as: .hung(seconds: Int(deadline.rounded()))) }
            let ready = shelf_channel_wait(fd, 50)
            if ready == 0 { continue }
            var raw = shelf_message()
            guard ready > 0, shelf_channel_receive(fd, &raw) == 0 else { throw ended() }
            let message = ChannelMessage(raw)
            lastHeard = DispatchTime.now()
            if message.op == UInt32(SHELF_OP_REPLY.rawValue) { return message }
            if let answer = services(message) {
                defer { if let passing = answer.passing { close(passing) } }
                guard ChannelField.send(fd, UInt32(SHELF_OP_REPLY.rawValue), answer.fields) else { throw ended() }
                if let passing = answer.passing, shelf_channel_send_fd(fd, passing) != 0 { throw ended() }
            }
        }
    }

    /// How long a plugin has to stop once its call is cancelled (plugin.h: it polls is_cancelled in its loops).
    static let cancelGrace: Double = 1

    /// Kills the child for `why`, which is then how it ended.
    private func stop(as why: End) -> End {
        kill(pid, SIGKILL)
        reap(waitingUpTo: 5)
        end = why
        return why
    }

    /// The channel closed or broke: the child is gone (or going); says how it ended.
    private func ended() -> End {
        if let end { return end }
        reap(waitingUpTo: 2)
        return end ?? .broken("the channel closed")
    }

    /// Collects the child's exit status, killing it if it does not end within `seconds`.
    private func reap(waitingUpTo seconds: Double) {
        var status: Int32 = 0
        let until = DispatchTime.now() + seconds
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 { end = end ?? .broken("its process could not be waited for"); return }
            if DispatchTime.now() >= until {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(2_000)
        }
        if end != nil { return }
        // WIFSIGNALED / WEXITSTATUS, which Swift does not import (macros).
        let signal = status & 0x7f
        end = signal != 0 ? .crashed(signal: signal) : .exited(status: (status >> 8) & 0xff)
    }

    /// Ends the child now (its plugin was disabled, or shelf is done with it).
    func stop() {
        guard end == nil else { return }
        kill(pid, SIGKILL)
        reap(waitingUpTo: 5)
        end = .broken("stopped by shelf")
    }
}
