@testable import Host
import ShelfCore
@testable import ShelfPlugins
import Readium
import XCTest

/// The publication memo's binary locators answer exactly what the plugin wrote, members the model does not name
/// included: a plugin that makes its positions precise with a `cssSelector` must not lose it on the second open.
final class LocatorCoderTests: XCTestCase {
    func roundTrip(_ locators: [Locator]) throws -> [Locator] {
        var writer = ByteWriter()
        LocatorCoder.encode(locators, to: &writer)
        var reader = ByteReader(Data(writer.bytes))
        return try LocatorCoder.decode(&reader)
    }

    func testUnknownMembersOfALocatorAndItsLocationsSurvive() throws {
        var precise = Locator(
            href: "ch1.xhtml", type: "application/xhtml+xml", title: "One",
            locations: .init(position: 1, progression: 0, totalProgression: 0))
        precise.extra["x-plugin-note"] = .string("kept")
        precise.locations.extra["cssSelector"] = .string("#p12")
        precise.locations.extra["partialCfi"] = .string("/4/2[p12]")
        let plain = Locator(
            href: "ch2.xhtml", type: "application/xhtml+xml",
            locations: .init(position: 2, progression: 0.5, totalProgression: 0.5, fragments: ["t=3"]),
            text: .init(before: "a", highlight: "b", after: nil))
        XCTAssertEqual(try roundTrip([precise, plain]), [precise, plain])
    }

    func testAMemoWithADamagedExtraIsRefused() throws {
        var locator = Locator(href: "a", type: "t")
        locator.locations.extra["cssSelector"] = .string("#x")
        var writer = ByteWriter()
        LocatorCoder.encode([locator], to: &writer)
        // The extra member's JSON is the last string of the table: break it.
        var bytes = writer.bytes
        guard let brace = bytes.firstIndex(of: UInt8(ascii: "{")) else { return XCTFail("no JSON in the memo") }
        bytes[brace] = UInt8(ascii: "[")
        var reader = ByteReader(Data(bytes))
        XCTAssertThrowsError(try LocatorCoder.decode(&reader))
    }
}
