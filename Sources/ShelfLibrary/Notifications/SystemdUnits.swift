import ShelfValues
import ShelfCore
import ShelfPlugins
import Foundation

/// `shelf watch --install`: a systemd user service that runs `shelf watch --once`, and a timer that starts it
/// every interval. Written where systemd looks for user units, never enabled: the patron starts it with systemctl.
///
/// A shelf with its own `SHELF_HOME` (a portable install, a second library) gets units named after that folder,
/// with `SHELF_HOME` in the service's environment, so it never overwrites the patron's own `shelf-watch` units.
public struct SystemdUnits {
    public let executable: String
    public let interval: TimeInterval
    /// Variables the service needs to find the same library (SHELF_HOME when set).
    public let environment: [String: String]
    /// The units' name without suffix: `shelf-watch`, or `shelf-watch-<folder>-<hash>` for a SHELF_HOME.
    public let name: String

    public init(executable: String, interval: TimeInterval, environment: [String: String]) {
        self.executable = executable
        self.interval = interval
        self.environment = environment
        name = Self.unitName(environment: environment)
    }

    public var serviceName: String { name + ".service" }
    public var timerName: String { name + ".timer" }

    /// `shelf-watch`, or for a SHELF_HOME its last folder name (letters, digits, `-` and `_`) and a hash of its path.
    static func unitName(environment: [String: String]) -> String {
        guard let home = environment["SHELF_HOME"], !home.isEmpty else { return "shelf-watch" }
        let path = URL(fileURLWithPath: home).standardizedFileURL.path
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let readable = String(
            URL(fileURLWithPath: path).lastPathComponent.unicodeScalars.map {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") ? Character($0) : "_"
            }.prefix(40))
        return "shelf-watch-" + (readable.isEmpty ? "" : readable + "-") + String(String(hash, radix: 16).prefix(8))
    }

    /// Where systemd looks for a user's own units: `$XDG_CONFIG_HOME/systemd/user`, or `~/.config/systemd/user`.
    public static func folder(environment: [String: String], directories: ShelfDirectories? = nil) throws -> URL {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent(
                "systemd/user", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw ShelfError(.usage, "cannot tell where systemd keeps user units: set HOME or XDG_CONFIG_HOME")
        }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
            ".config/systemd/user", isDirectory: true)
    }

    public var service: String {
        var lines = [
            "[Unit]",
            "Description=shelf: sync library loans and holds, and tell of holds ready and loans ending"
                + (environment["SHELF_HOME"].map { " (\($0))" } ?? ""),
            "Documentation=man:shelf(1)",
            "",
            "[Service]",
            "Type=oneshot",
            "ExecStart=\(Self.quoted(executable)) watch --once --interval \(WatchInterval.systemd(interval))"
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
        for (name, text) in [(serviceName, service), (timerName, timer)] {
            let url = folder.appendingPathComponent(name)
            do {
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch {
                throw ShelfError(
                    .ioError, "cannot write \(url.path) (\(error.localizedDescription))", subject: url.path)
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
