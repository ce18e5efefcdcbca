import Foundation
import Glibc

/// A track whose part is still downloading, played from the bytes already on disk: its decoder reads the `.part`
/// file until it runs out, and is opened again once the file has grown (or on the whole file once it is here), at
/// the frame where it stopped. So the first sound of a remote book waits for a few seconds of it, not the whole part.
package enum GrowingTrack {
    /// Bytes a part needs before it is worth opening (a few seconds of speech at common bit rates).
    package static let minimumBytes: Int64 = 16 * 1024
    /// After a decoder ran out of data, the growth that is worth opening it again for.
    package static let reopenStep: Int64 = 48 * 1024

    /// The file's size now, 0 when it is not there.
    package static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
