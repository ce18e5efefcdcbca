import Foundation

/// `shelf watch --install`: a systemd user service that runs `shelf watch --once`, and a timer that starts it
/// every interval. Written, never enabled: the patron starts it with systemctl.
public struct SystemdUnits {
    public static let serviceName = "shelf-watch.service"
    public static let timerName = "shelf-watch.timer"

    public let executable: String
    public let interval: TimeInterval
    /// Variables the service needs to find the same library (SHELF_HOME when set).
    public let environment: [String: String]

    public init(executable: String, interval: TimeInterval, environment: [String: String]) {
        self.executable = executable
        self.interval = interval
        self.environment = environment
    }

    /// `$XDG_CONFIG_HOME/systemd/user` (or `~/.config/systemd/user`); with SHELF_HOME, `SHELF_HOME/config/systemd/user`
    /// so that tests and portable installs never touch the patron's own.
    public static func folder(environment: [String: String], directories: ShelfDirectories) throws -> URL {
        if let home = environment["SHELF_HOME"], !home.isEmpty {
            return directories.config.appendingPathComponent("systemd/user", isDirectory: true)
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("systemd/user", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw ShelfError(.usage, "cannot tell where systemd keeps user units: set HOME or XDG_CONFIG_HOME")
        }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config/systemd/user", isDirectory: true)
    }

    public var service: String {
        var lines = [
            "[Unit]",
            "Description=shelf: sync library loans and holds, and tell of holds ready and loans ending",
            "Documentation=man:shelf(1)",
            "",
            "[Service]",
            "Type=oneshot",
            "ExecStart=\(Self.quoted(executable)) watch --once --interval \(WatchInterval.systemd(interval))",
        ]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            lines.append("Environment=\(Self.quoted("\(name)=\(value)"))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public var timer: String {
        """
        [Unit]
        Description=Run shelf watch every \(WatchInterval.words(interval))

        [Timer]
        OnBootSec=2min
        OnUnitActiveSec=\(WatchInterval.systemd(interval))
        RandomizedDelaySec=30s

        [Install]
        WantedBy=timers.target

        """
    }

    /// Writes both units into `folder` (created if needed); returns their paths.
    public func write(to folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written: [String] = []
        for (name, text) in [(Self.serviceName, service), (Self.timerName, timer)] {
            let url = folder.appendingPathComponent(name)
            do {
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch {
                throw ShelfError(.ioError, "cannot write \(url.path) (\(error.localizedDescription))", subject: url.path)
            }
            written.append(url.path)
        }
        return written
    }

    /// A word as systemd's command-line and Environment= parsing reads it: in double quotes, with `\`, `"` and
    /// `%` (a specifier) escaped.
    static func quoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%")
        return "\"\(escaped)\""
    }
}
