import Glibc

/// The process's environment as a dictionary, read from `environ`. Every command starts with it:
/// ProcessInfo would first build its whole singleton (about a tenth of a millisecond).
package enum ProcessEnvironment {
    /// The environment as it was when the host first asked: read once per process (a static let is made once,
    /// safely from any thread), so that every part of the host sees the same values.
    package static let shared: [String: String] = current()

    package static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                // As getenv(3) reads it: the first of two definitions wins.
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
