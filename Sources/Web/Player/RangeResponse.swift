import Foundation
import Host

/// A file served whole or in part (RFC 9110 Range: one `bytes=` range), as an audio element asks for it to start
/// anywhere in a track without reading what comes before.
enum RangeResponse {
    static func serve(file: URL, type: String, range: String?) throws -> WebResponse {
        guard let handle = try? FileHandle(forReadingFrom: file) else {
            throw WebError(404, ListeningRequestProblem.trackFileMissing)
        }
        // Only read: closing cannot lose anything.
        defer { try? handle.close() }
        // The file was just opened; a size that cannot be read serves it as empty, and the player says it cannot play.
        let size = Int(
            (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0)
        guard let range, let (start, end) = parse(range, size: size) else {
            if range != nil {
                return WebResponse(
                    status: 416, headers: [("Content-Range", "bytes */\(size)"), ("Accept-Ranges", "bytes")])
            }
            let data = try handle.readToEnd() ?? Data()
            return WebResponse(status: 200, contentType: type, headers: [("Accept-Ranges", "bytes")], body: data)
        }
        try handle.seek(toOffset: UInt64(start))
        let data = try handle.read(upToCount: end - start + 1) ?? Data()
        return WebResponse(
            status: 206, contentType: type,
            headers: [
                ("Accept-Ranges", "bytes"), ("Content-Range", "bytes \(start)-\(start + data.count - 1)/\(size)")
            ], body: data)
    }

    /// Bytes already read (a book's resource), whole or the part `range` asks for.
    static func part(of data: Data, type: String, range: String?) -> WebResponse {
        guard let range else {
            return WebResponse(status: 200, contentType: type, headers: [("Accept-Ranges", "bytes")], body: data)
        }
        guard let (start, end) = parse(range, size: data.count) else {
            return WebResponse(
                status: 416, headers: [("Content-Range", "bytes */\(data.count)"), ("Accept-Ranges", "bytes")])
        }
        let base = data.startIndex
        return WebResponse(
            status: 206, contentType: type,
            headers: [("Accept-Ranges", "bytes"), ("Content-Range", "bytes \(start)-\(end)/\(data.count)")],
            body: data.subdata(in: (base + start)..<(base + end + 1)))
    }

    /// The first and last byte of `bytes=A-B`, `bytes=A-` or `bytes=-N` within `size`; nil when it asks for none of
    /// them. A larger part than 8 MB is cut to 8 MB (the browser asks again for the rest).
    static func parse(_ header: String, size: Int) -> (Int, Int)? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), size > 0 else { return nil }
        let spec = text.dropFirst(6).split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        var start: Int, end: Int
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            start = max(0, size - suffix)
            end = size - 1
        } else {
            guard let first = Int(parts[0]), first >= 0, first < size else { return nil }
            start = first
            end = parts[1].isEmpty ? size - 1 : min(size - 1, Int(parts[1]) ?? -1)
            guard end >= start else { return nil }
        }
        end = min(end, start + (8 << 20) - 1)
        return (start, end)
    }
}
