import Foundation

/// Collects a response body in memory, refusing to grow past a limit so that a hostile or
/// broken server cannot make shelf swallow all the memory it sends.
final class MemorySink: BodySink {
    let limit: Int64
    private(set) var data = Data()
    private(set) var exceeded = false

    init(limit: Int64) { self.limit = limit }

    func receive(_ bytes: UnsafeRawBufferPointer, status: Int, headers: HTTPHeaders) -> Bool {
        guard Int64(data.count) + Int64(bytes.count) <= limit else {
            exceeded = true
            return false
        }
        data.append(contentsOf: bytes)
        return true
    }
}
