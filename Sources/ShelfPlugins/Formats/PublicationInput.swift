import ShelfCore
import Foundation
import PluginAPI

/// A local file as the ABI presents it (`shelf_input`): path, sniffed type, and its first bytes.
public struct PublicationInput: Sendable {
    public let path: String
    public let uri: String
    /// The sniffed media type (MediaTypeSniffer), refined by what the plugins declare (MediaTypeRefinement).
    public internal(set) var mediaType: String?
    public let head: [UInt8]
    public let fileSize: UInt64

    public var fileExtension: String { (path as NSString).pathExtension.lowercased() }

    /// Reads the head of `path`; missing or unreadable files are `noInput`.
    public init(path: String, uri: String? = nil) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ShelfError(
                .noInput, "no such file", subject: path,
                next: NextStep(
                    terminal: "Check the path; `shelf --help` shows how to name a book.", browser: "Check the path."))
        }
        guard !isDirectory.boolValue else {
            throw ShelfError(.noInput, "is a directory, not a book", subject: path)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ShelfError(.permission, "cannot be read (permission denied?)", subject: path)
        }
        // Only read: closing cannot lose anything.
        defer { try? handle.close() }
        // A head that cannot be read sniffs as unknown bytes; opening the file then says why it cannot be read.
        let head = (try? handle.read(upToCount: MediaTypeSniffer.headSize)) ?? Data()
        // stat, not FileManager's attributes: those also look up the owner's and group's names (/etc/passwd).
        let size = FileIdentity(path: path).map { UInt64(max(0, $0.size)) } ?? UInt64(head.count)
        self.path = path
        self.uri = uri ?? path
        self.head = [UInt8](head)
        self.fileSize = size
        self.mediaType = MediaTypeSniffer.sniff(
            head: self.head, path: path,
            fileExtension: (path as NSString).pathExtension.lowercased())
    }

    /// Builds the C struct, valid only inside `body`.
    package func withCInput<T>(_ body: (UnsafePointer<shelf_input>) throws -> T) rethrows -> T {
        try path.withCString { cPath in
            try uri.withCString { cURI in
                try (mediaType ?? "").withCString { cType in
                    try head.withUnsafeBufferPointer { bytes in
                        var input = shelf_input(
                            struct_size: UInt32(MemoryLayout<shelf_input>.size),
                            path: cPath, uri: cURI, media_type: mediaType == nil ? nil : cType,
                            head: bytes.baseAddress, head_size: bytes.count, file_size: fileSize)
                        return try body(&input)
                    }
                }
            }
        }
    }
}
