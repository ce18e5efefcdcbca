import Glibc

/// Names the system time zone in `TZ` when it is unset.
///
/// With `TZ` unset, glibc re-checks /etc/localtime (a stat) on every `mktime`, and libzip calls
/// `mktime` for each entry of an archive's central directory: opening a 600-chapter EPUB cost
/// about 1,200 system calls, twice (probe and open). With the zone named once, glibc keeps it.
/// The name is the one /etc/localtime points to, so local times stay exactly what they were;
/// when it is not a link into the zoneinfo folder, nothing is set.
public enum TimeZonePin {
    public static func apply() {
        guard getenv("TZ") == nil else { return }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        guard length > 0 else { return }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = target.range(of: "/zoneinfo/") else { return }
        let name = target[range.upperBound...]
        guard !name.isEmpty, !name.contains(".."), name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return }
        setenv("TZ", String(name), 0)
    }
}
