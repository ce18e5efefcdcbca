import Foundation
import Glibc

/// A listening TCP socket on 127.0.0.1 at a port the system picks: the OAuth redirect's listener and the connector
/// checks' failing service both need one.
package enum LoopbackSocket {
    /// The listening socket and its port; `purpose` names it in the error ("the sign-in").
    package static func listen(backlog: Int32, purpose: String) throws -> (socket: Int32, port: UInt16) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ShelfError(.ioError, "cannot open a loopback socket for \(purpose)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            close(fd)
            throw ShelfError(.ioError, "cannot listen on 127.0.0.1 for \(purpose)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
