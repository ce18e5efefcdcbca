import Foundation
import Host
#if canImport(Glibc)
    import Glibc
#endif

/// `shelf serve` from start to Ctrl-C: reuse a running server or start one, record it, open the browser, serve.
public enum Serve {
    public struct Options: Sendable {
        public var port: UInt16 = 0
        public var listen: String?
        public var password: String?
        public var open = false
        public var file: String?
        public var syncInterval: TimeInterval? = 15 * 60
        public init() {}
    }

    /// What the command prints: where it serves, the address with the key, and whether it reused a server.
    public struct Started: Sendable {
        public let url: String
        public let launchURL: String
        public let reused: Bool
        public let opened: Bool
        public let pid: Int32
    }

    /// Opens the running server when there is one (and `--listen`/`--port` ask nothing else of it); otherwise
    /// starts one, calls `started`, and serves until SIGINT or SIGTERM.
    public static func run(
        _ options: Options, executable: URL, environment: [String: String], cache: URL,
        started: (Started) -> Void
    ) throws {
        if options.listen == nil, options.port == 0 || ServeInstance.running(in: cache)?.port == options.port,
            let running = ServeInstance.running(in: cache), let launch = running.newLaunchURL(file: options.file)
        {
            started(
                Started(
                    url: running.url, launchURL: launch, reused: true,
                    opened: options.open && openBrowser(launch, environment: environment), pid: running.pid))
            return
        }
        guard let webRoot = StaticFiles.findRoot(executable: executable, environment: environment) else {
            throw ServerProblem.webFilesMissing.error
        }
        var configuration = WebApp.Configuration(webRoot: webRoot, environment: environment)
        configuration.port = options.port
        configuration.address = options.listen ?? "127.0.0.1"
        configuration.password = options.password
        configuration.syncInterval = options.syncInterval
        configuration.reportRefusals = true
        let app = WebApp(configuration)

        // Signals are taken as events on a queue, so the handler itself does nothing but wake it.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        raiseDescriptorLimit()
        let port = try start(app, asked: options.port, remembering: options.listen == nil ? cache : nil)
        let instance = ServeInstance(pid: getpid(), port: port, key: app.guardian.secret)
        if options.listen == nil { try instance.save(in: cache) }
        defer { instance.remove(in: cache) }
        let launch = app.launchURL(file: options.file)
        started(
            Started(
                url: app.url, launchURL: launch, reused: false,
                opened: options.open && openBrowser(launch, environment: environment), pid: getpid()))
        stop.wait()
        app.stop()
    }

    /// Starts `app` on the port asked for, or else on the port of the last launch, kept in `serve-port` of the cache
    /// folder: the app's and each book's origin include the port, and a book's storage is kept by its origin
    /// (`BookOrigins`). When that port is taken, the kernel chooses another, remembered from then on.
    static func start(_ app: WebApp, asked: UInt16, remembering cache: URL?) throws -> UInt16 {
        guard asked == 0, let cache else { return try app.start(port: asked) }
        let file = cache.appendingPathComponent("serve-port")
        // No port remembered (or an unreadable record): the kernel chooses, as on the first launch.
        let remembered = (try? String(contentsOf: file, encoding: .utf8)).flatMap {
            UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var port: UInt16 = 0
        // The port of the last launch may be taken by another program now: then another is chosen.
        if let remembered, remembered > 0 { port = (try? app.start(port: remembered)) ?? 0 }
        if port == 0 { port = try app.start(port: 0) }
        // Remembering is a convenience: when the cache cannot be written, the next launch picks a port anew.
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try? "\(port)\n".write(to: file, atomically: true, encoding: .utf8)
        return port
    }

    /// Lets the server hold its whole pool of connections (`HTTPDaemon.maxConnections`) where the soft limit on
    /// open files is the common 1024: raised to the hard limit, at most 4096.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < 4096 else { return }
        limit.rlim_cur = min(limit.rlim_max, 4096)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Starts the patron's browser with xdg-open; false when it could not be started.
    static func openBrowser(_ url: String, environment: [String: String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
