import Foundation

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
