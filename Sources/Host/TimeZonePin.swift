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
        guard length > 0, let name = zoneName(linkTarget: buffer[..<length].map { UInt8(bitPattern: $0) }) else { return }
        setenv("TZ", name, 0)
    }

    /// "Europe/Paris" from ".../zoneinfo/Europe/Paris"; nil for anything else. Bytes, not Foundation's
    /// range(of:): this runs before every command.
    static func zoneName(linkTarget target: [UInt8]) -> String? {
        let marker = Array("/zoneinfo/".utf8)
        guard target.count > marker.count,
              let at = (0...(target.count - marker.count)).first(where: { target[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return nil }
        let name = target[(at + marker.count)...]
        let dotDot = zip(name, name.dropFirst()).contains { $0 == 0x2E && $1 == 0x2E }
        guard !name.isEmpty, !dotDot, name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }
}
