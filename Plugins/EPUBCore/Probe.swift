import Foundation
import PluginAPI
import PluginKit

/// Fast package-version sniffing for probe: reads the container and the first bytes of the OPF.
public enum EPUBProbe {
    /// The package version ("2.0", "3.0", ...) or nil when the input is not an EPUB we can read.
    public static func packageVersion(path: String) -> String? {
        // A probe: nil is "not an EPUB we can read"; opening it says why.
        guard let zip = try? ZipArchive(path: path) else { return nil }
        // As above.
        guard let c = zip.entry(named: "META-INF/container.xml"), let data = try? zip.read(c, limit: 1 << 20),
            let container = try? Container.parse(data)
        else { return nil }
        let roots = container.rootfiles.filter { $0.mediaType == "application/oebps-package+xml" }
        guard let root = (roots.isEmpty ? container.rootfiles : roots).first(where: { zip.contains($0.path) }),
            // As above.
            let e = zip.entry(named: root.path), let head = try? zip.read(e, limit: 8192)
        else { return nil }
        guard let version = versionAttribute(String(decoding: head, as: UTF8.self)) else { return nil }
        ProbedArchive.keep(zip, path: path)
        return version
    }

    /// The version attribute of the first <package> (or <opf:package>) start tag.
    static func versionAttribute(_ text: String) -> String? {
        var rest = Substring(text)
        while let r = rest.range(of: "package") {
            let before = rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            guard before.hasSuffix("<") || before.hasSuffix(":") else { continue }
            guard let end = rest.firstIndex(of: ">") else { return nil }
            let tag = rest[..<end]
            // A package without a version attribute predates EPUB 3: read it as 2.0.
            guard let v = tag.range(of: "version") else { return "2.0" }
            var after = tag[v.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard after.first == "=" else { return nil }
            after = after.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard let q = after.first, q == "\"" || q == "'" else { return nil }
            let value = after.dropFirst().prefix { $0 != q }
            return String(value).trimmedASCII
        }
        return nil
    }

    /// Probe confidence for a plugin serving package major version `major`.
    public static func confidence(for input: PluginInput, major: Int) -> Int32 {
        let looksZip = input.head.count >= 4 && input.head[0] == 0x50 && input.head[1] == 0x4B
        let typed = input.mediaType == "application/epub+zip"
        guard looksZip || typed || input.fileExtension == "epub" else { return 0 }
        guard let version = packageVersion(path: input.path) else {
            // A zip that is not a readable EPUB: only the extension or the sniffed type speak for it.
            return (typed || input.fileExtension == "epub") ? (major == 3 ? 10 : 5) : 0
        }
        let found = Int(version.split(separator: ".").first ?? "") ?? 0
        if found == major { return 100 }
        // Versions we do not know go to EPUB 3 (newer) or EPUB 2 (older), with low confidence.
        if found > 3 && major == 3 { return 40 }
        if found < 2 && major == 2 { return 40 }
        return found == 0 ? 5 : 0
    }
}
