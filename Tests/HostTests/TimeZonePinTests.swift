@testable import Host
import XCTest

/// The zone named from /etc/localtime's link: only a plain name inside a zoneinfo folder.
final class TimeZonePinTests: XCTestCase {
    func testTheZoneNameIsTakenOnlyFromAZoneinfoLink() {
        func name(_ target: String) -> String? { TimeZonePin.zoneName(linkTarget: Array(target.utf8)) }
        XCTAssertEqual(name("/usr/share/zoneinfo/Europe/Paris"), "Europe/Paris")
        XCTAssertEqual(name("../usr/share/zoneinfo/Etc/UTC"), "Etc/UTC")
        XCTAssertEqual(name("/usr/share/zoneinfo/posix/America/New_York"), "posix/America/New_York")
        for refused in ["", "x", "/zoneinfo/", "/usr/share/zoneinfo/", "/etc/localtime.real",
                        "/usr/share/zoneinfo/../../../etc/passwd", "/usr/share/zoneinfo/Bad Name", "/usr/share/zoneinfo/Caf\u{e9}"] {
            XCTAssertNil(name(refused), refused)
        }
    }
}
