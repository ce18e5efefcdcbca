import Foundation

public struct DownloadProgress: Sendable, Equatable {
    /// Bytes in the partial file so far, including any kept from an earlier attempt.
    public var bytesWritten: Int64
    /// The size of the whole file when the server announced it.
    public var totalBytes: Int64?

    package init(bytesWritten: Int64, totalBytes: Int64?) {
        self.bytesWritten = bytesWritten
        self.totalBytes = totalBytes
    }

    public var fractionCompleted: Double? {
        totalBytes.flatMap { $0 > 0 ? Double(bytesWritten) / Double($0) : nil }
    }
}

public struct DownloadResult: Sendable {
    public var destination: URL
    /// The size of the file now at `destination`.
    public var bytes: Int64
    /// Bytes reused from an earlier `.part` rather than fetched again (0 for a fresh download).
    public var resumedFrom: Int64
    /// The server said 304 to a conditional request: `destination` was left untouched.
    public var notModified: Bool
    public var status: Int
    public var headers: HTTPHeaders
    /// Where the file came from after redirects.
    public var url: URL
    public var attempts: Int

    public var validators: HTTPValidators {
        HTTPValidators(etag: headers["ETag"], lastModified: headers["Last-Modified"])
    }
}
