import Foundation
import Glibc

/// What the runner says about a child that died of a signal: the signal, the plugin call it was in, and its
/// backtrace with file:line where the plugin carries debug information (`addr2line`, from binutils).
struct CrashReport: CustomStringConvertible {
    let signal: Int32
    let call: String?
    let frames: [String]
    /// The plugin's file name: its frames are the ones worth showing.
    let library: String

    init(signal: Int32, path: String, plugin: String) {
        self.signal = signal
        library = (plugin as NSString).lastPathComponent
        // The child writes it as it dies; none (or half of one) leaves the report without the call and frames.
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        call = lines.first.flatMap(Self.callLine)
        frames = Self.symbolize(lines.dropFirst().filter { !$0.isEmpty })
    }

    static func call(path: String) -> String? {
        // As above.
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").first.flatMap {
            callLine(String($0))
        }
    }

    private static func callLine(_ line: String) -> String? {
        guard line.hasPrefix("call: ") else { return nil }
        let call = String(line.dropFirst(6))
        return call.isEmpty ? nil : call
    }

    var description: String {
        let name = String(cString: strsignal(signal))
        var text = "the plugin crashed with signal \(signal) (\(name))"
        text += call.map { " in \($0)" } ?? " outside any call into it (while loading?)"
        // The plugin's own frames; the handler's, the C library's and the host's say nothing to its author.
        let own = frames.filter { $0.hasSuffix(" in " + library) }
        if !own.isEmpty { text += "; backtrace: " + own.prefix(8).joined(separator: " <- ") }
        return text
    }

    /// "/path/libx.so(func+0x1c) [0x7f...]" or "/path/libx.so(+0x11e9) [0x7f...]" into "func (x.c:42) in libx.so".
    static func symbolize(_ lines: [String]) -> [String] {
        lines.map { line in
            guard let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") else {
                return line
            }
            let object = String(line[..<open])
            let inside = line[line.index(after: open)..<close]
            let library = (object as NSString).lastPathComponent
            guard let plus = inside.lastIndex(of: "+"),
                let offset = UInt64(inside[inside.index(after: plus)...].dropFirst(2), radix: 16)
            else {
                return "\(inside) in \(library)"
            }
            let symbol = String(inside[..<plus])
            // Only a relative offset (no symbol) can be looked up in the file; a return address points after the call.
            if symbol.isEmpty, let place = addr2line(object: object, offset: offset > 0 ? offset - 1 : 0) {
                return "\(place) in \(library)"
            }
            return "\(symbol.isEmpty ? "?" : symbol) in \(library)"
        }
    }

    private static func addr2line(object: String, offset: UInt64) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["addr2line", "-f", "-e", object, "0x" + String(offset, radix: 16)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        // Without addr2line a frame shows its address only.
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2, process.terminationStatus == 0 else { return nil }
        let function = lines[0] == "??" ? "?" : lines[0]
        let place = (lines[1] as NSString).lastPathComponent
        return place.hasPrefix("??") ? function : "\(function) (\(place))"
    }
}
