import Foundation

/// How far a download has come, as a front end's progress line shows it.
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
