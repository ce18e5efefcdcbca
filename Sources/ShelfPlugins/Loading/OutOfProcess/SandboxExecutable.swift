import ShelfCore
import Foundation
import Synchronization
import Glibc
import PluginAPI

/// Where shelf-plugin-sandbox is (beside shelf, or in <prefix>/lib/shelf), and the folders of the Swift runtime
/// a plugin written in Swift needs to read.
enum SandboxExecutable {
    static let name = "shelf-plugin-sandbox"

    static func path() throws -> String {
        let bin = (PluginSearchPath.executablePath() as NSString).deletingLastPathComponent
        let prefix = (bin as NSString).deletingLastPathComponent
        for candidate in [bin + "/" + name, prefix + "/lib/shelf/" + name] where access(candidate, X_OK) == 0 {
            return candidate
        }
        throw ShelfError(
            .unavailable, "\(name) is not installed beside shelf (\(bin)), so plugins shelf does not ship cannot run",
            hint: "Reinstall shelf, or run a plugin you trust in shelf itself with SHELF_PLUGINS_IN_PROCESS=ID.")
    }

    /// The folder of the Swift runtime shelf itself runs on (a toolchain under /opt, say), found from one of its
    /// symbols: the libraries a Swift plugin links are there.
    static let runtimeFolders: [String] = {
        // /proc/self/maps names every library shelf mapped; libswiftCore's folder holds the rest of the runtime. Read
        // line by line: a file of /proc says it is empty, so a whole-file read finds nothing.
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasSuffix("/libswiftCore.so"), let start = text.firstIndex(of: "/") else { continue }
            let path = String(text[start...])
            return [((PluginSearchPath.realPath(path) ?? path) as NSString).deletingLastPathComponent]
        }
        return []
    }()
}

/// What the children said of their confinement; a kernel without Landlock is said once per command.
enum Confinement {
    private static let warned = Mutex(false)

    static func note(_ report: String) {
        guard report.contains("no Landlock") else { return }
        let warn = warned.withLock { warned -> Bool in
            defer { warned = true }
            return !warned
        }
        if warn { HostServices.warn("plugins shelf does not ship run unconfined: \(report)") }
    }
}
