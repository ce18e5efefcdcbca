import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A Secret Service of the test's own: Debian's `gnome-keyring-daemon --unlock` on a session bus that
/// `dbus-run-session` starts for it, with the keyring's files in a temporary folder. Nothing of the desktop's own
/// bus or keyring is touched.
public final class PrivateKeyring {
    /// Why a keyring cannot be run here (the Debian packages it needs), or nil when it can.
    public static var missing: String? {
        for (tool, package) in [("dbus-run-session", "dbus-bin"), ("gnome-keyring-daemon", "gnome-keyring")]
        where !["/usr/bin/", "/bin/"].contains(where: { FileManager.default.isExecutableFile(atPath: $0 + tool) }) {
            return "\(tool) is not installed (Debian package \(package); scripts/install-deps.sh installs it)"
        }
        return nil
    }

    public let folder: URL
    /// The address to put in DBUS_SESSION_BUS_ADDRESS.
    public let address: String
    private let session: Process
    private let scriptPID: pid_t

    public init() throws {
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("shelf-keyring-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("run"), withIntermediateDirectories: true)
        chmod(folder.appendingPathComponent("run").path, 0o700)
        let script = folder.appendingPathComponent("session.sh")
        // Runs inside dbus-run-session: the keyring daemon, unlocked with a password on its stdin, then the bus's
        // address for the test; SIGTERM ends the daemon and the session.
        try """
        #!/bin/sh
        export HOME="\(folder.path)" XDG_DATA_HOME="\(folder.path)/data" XDG_RUNTIME_DIR="\(folder.path)/run"
        printf 'keyring-unlock' | gnome-keyring-daemon --foreground --unlock --components=secrets >"\(folder.path)/daemon.log" 2>&1 &
        keyring=$!
        trap 'kill $keyring 2>/dev/null; exit 0' TERM INT
        echo $$ > "\(folder.path)/pid"
        echo "$DBUS_SESSION_BUS_ADDRESS" > "\(folder.path)/address.tmp" && mv "\(folder.path)/address.tmp" "\(folder.path)/address"
        sleep 600 &
        wait $!
        kill $keyring 2>/dev/null
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        session = Process()
        session.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-run-session")
        session.arguments = ["--", script.path]
        session.standardOutput = FileHandle.nullDevice
        session.standardError = FileHandle.nullDevice
        try session.run()
        let addressFile = folder.appendingPathComponent("address"), pidFile = folder.appendingPathComponent("pid")
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !FileManager.default.fileExists(atPath: addressFile.path) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let text = try? String(contentsOf: addressFile, encoding: .utf8),
            let pidText = try? String(contentsOf: pidFile, encoding: .utf8),
            let pid = pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            session.terminate()
            throw NSError(
                domain: "PrivateKeyring", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "dbus-run-session gave no bus address"])
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        scriptPID = pid
        // The daemon owns org.freedesktop.secrets shortly after it starts.
        while Date() < deadline, !Self.secretsOwned(address) { Thread.sleep(forTimeInterval: 0.1) }
    }

    private static func secretsOwned(_ address: String) -> Bool {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"
        ]
        let out = Pipe()
        check.standardOutput = out
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        let reply = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        return reply.contains("boolean true")
    }

    public func stop() {
        if session.isRunning {
            kill(scriptPID, SIGTERM)
            // Polled, not waitUntilExit: the session ends once the script does, and a test never hangs on it.
            let deadline = Date().addingTimeInterval(5)
            while session.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if session.isRunning { session.terminate() }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
