import Foundation

/// A D-Bus session bus of the test's own: Debian's `dbus-daemon` with a configuration written into a temporary
/// folder, listening on a socket there. Nothing of the desktop's own bus is touched.
public final class PrivateSessionBus {
    /// Where dbus-daemon is, or nil (tests skip, saying so: install the Debian package `dbus-daemon`).
    public static var daemonPath: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin", "/bin"] {
            let candidate = "\(folder)/dbus-daemon"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public let folder: URL
    /// The address to put in DBUS_SESSION_BUS_ADDRESS.
    public let address: String
    private let process: Process

    public init() throws {
        guard let daemon = Self.daemonPath else {
            throw NSError(
                domain: "PrivateSessionBus", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "dbus-daemon is not installed"])
        }
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("shelf-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(folder.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--config-file=\(config.path)", "--print-address", "--nofork"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line on stdout is the address, written once the socket listens.
        var line = Data()
        let reader = out.fileHandleForReading
        let deadline = Date().addingTimeInterval(10)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            process.terminate()
            throw NSError(
                domain: "PrivateSessionBus", code: 2,
                userInfo: [NSLocalizedDescriptionKey: "dbus-daemon printed no address"])
        }
        address = text.components(separatedBy: "\n")[0]
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
