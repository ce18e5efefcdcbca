import Foundation
import Readium
import XCTest

final class ReadiumModelTests: XCTestCase {
    let json = #"""
        {"@context": "https://readium.org/webpub-manifest/context.jsonld",
         "metadata": {"title": {"fr": "Le Titre", "en": "The Title"},
                      "author": [{"name": "Ann Author", "sortAs": "Author, Ann"}, "Bo Writer"],
                      "narrator": {"name": {"en": "Cy Voice"}}},
         "links": [{"href": "manifest.json", "rel": "self", "type": "application/webpub+json"}],
         "readingOrder": [{"href": "c1.xhtml", "type": "application/xhtml+xml", "width": 600, "language": "en"}],
         "landmarks": [{"href": "c1.xhtml", "title": "Start", "rel": "bodymatter"}],
         "pageList": [{"href": "c1.xhtml#p1", "title": "1"}],
         "x-vendor": {"anything": [1, true, null]}}
        """#

    func testAManifestSurvivesARoundTripWhole() throws {
        let manifest = try Manifest.parse(Data(json.utf8))
        XCTAssertEqual(manifest.links.first?.rel, ["self"], "a lone rel string reads as a list")
        XCTAssertEqual(manifest.readingOrder.first?.extra["width"], .number(600))
        XCTAssertEqual(manifest.links(in: "landmarks").first?.rel, ["bodymatter"])
        XCTAssertEqual(manifest.links(in: "pageList").count, 1)
        let again = try Manifest.parse(Data(ReadiumJSON.encode(manifest).utf8))
        XCTAssertEqual(again, manifest)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(ReadiumJSON.encode(manifest).utf8)) as? [String: Any])
        XCTAssertNotNil(object["x-vendor"], "unknown members are kept")
        XCTAssertEqual((object["readingOrder"] as? [[String: Any]])?.first?["language"] as? String, "en")
    }

    func testTitlesAndContributorsInEveryShape() throws {
        let manifest = try Manifest.parse(Data(json.utf8))
        XCTAssertEqual(manifest.title, "The Title", "a language map yields one of its values, in key order")
        XCTAssertEqual(manifest.authors, ["Ann Author", "Bo Writer"])
        XCTAssertEqual(manifest.contributors("narrator"), ["Cy Voice"], "a localized name")
        XCTAssertEqual(manifest.contributors("translator"), [])
    }

    func testSettingLinksInASubcollection() throws {
        var manifest = Manifest(
            metadata: ["title": .string("T")], readingOrder: [Link(href: "a.xhtml", type: "application/xhtml+xml")])
        manifest.setLinks([Link(href: "a.xhtml", title: "Start", rel: ["bodymatter"])], in: "landmarks")
        XCTAssertEqual(manifest.links(in: "landmarks").map(\.href), ["a.xhtml"])
        manifest.setLinks([], in: "landmarks")
        XCTAssertNil(manifest.subcollections["landmarks"])
    }

    func testLocatorsTypedByHandNeedOnlyAnHref() throws {
        let locator = try Locator.parse(#"{"href": "c2.xhtml", "locations": {"progression": 0.5}}"#)
        XCTAssertEqual(locator.href, "c2.xhtml")
        XCTAssertEqual(locator.type, "")
        XCTAssertEqual(locator.locations.progression, 0.5)
        XCTAssertThrowsError(try Locator.parse(#"{"locations": {}}"#))
        XCTAssertThrowsError(try Locator.parse("not json"))
        XCTAssertEqual(try Locator.parse(locator.jsonString()), locator)
    }

    func testAManifestWithoutReadingOrderIsRefused() {
        XCTAssertThrowsError(try Manifest.parse(Data(#"{"metadata": {"title": "x"}}"#.utf8)))
        XCTAssertThrowsError(try Manifest.parse(Data(#"{"readingOrder": []}"#.utf8)))
    }
}
