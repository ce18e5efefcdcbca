import CZip
import Foundation

/// Writes small zip files with libzip for tests.
enum ZipWriter {
    static func write(path: String, entries: [(String, Data)]) throws {
        try? FileManager.default.removeItem(atPath: path)
        var error: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            throw NSError(domain: "zip", code: Int(error))
        }
        for (name, data) in entries {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
            data.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: data.count)
            // libzip frees the buffer (freep = 1) once written.
            guard let source = zip_source_buffer(archive, copy, zip_uint64_t(data.count), 1),
                zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_OVERWRITE)) >= 0
            else {
                zip_discard(archive)
                throw NSError(domain: "zip", code: 2)
            }
        }
        guard zip_close(archive) == 0 else { throw NSError(domain: "zip", code: 3) }
    }
}
