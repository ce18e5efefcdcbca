import Foundation
@testable import Host
@testable import ShelfLibrary
import XCTest

/// OPDS 1 is read as a stream; these pin down what the former tree-walking parser read, so the stream reads the same:
/// which white space counts, first-of-each elements, references in attributes, nesting rules, refusals.
final class StreamParsingTests: XCTestCase {
    let base = URL(string: "https://library.example/catalog/")!
    let atom =
        #"xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:dc="http://purl.org/dc/terms/""#

    func feed(_ body: String) throws -> CatalogFeed {
        try CatalogDocument.parse(Data("<feed \(atom)><id>f</id><title>F</title>\(body)</feed>".utf8), url: base)
    }

    func entry(_ body: String) throws -> CatalogEntry {
        try XCTUnwrap(
            feed("<entry>\(body)<link rel=\"http://opds-spec.org/acquisition\" href=\"a.epub\"/></entry>").entries.first
        )
    }

    /// libxml2's NOBLANKS tree dropped white space between child elements unless the element already held text, and
    /// Atom text read an element's own text before its children's.
    func testWhiteSpaceAndTextOrderAsTheTreeHadThem() throws {
        XCTAssertEqual(try entry("<id>a</id><title><b/>a<b/> <b/>c</title>").title, "ac")
        XCTAssertEqual(try entry("<id>a</id><title>x<b/>a<b/> <b/>c</title>").title, "xa c")
        XCTAssertEqual(try entry(#"<id>a</id><title xml:space="preserve"><b/> <b/>q</title>"#).title, "q")
        XCTAssertEqual(try entry("<id>a</id><title>A<![CDATA[ <cdata> ]]>B</title>").title, "A <cdata> B")
        XCTAssertEqual(try entry("<id>a</id><title>a<!--x-->b <?pi?> c</title>").title, "ab  c")
        let xhtml = """
            <id>a</id><title>T</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">
              <p>Hello <b>bold</b> world</p>  <p> <i>x</i> </p>
              <p>a<b/> <b/>c</p><!-- c -->   <p>&#32;<b>y</b>&amp; <i>z</i></p>
            </div></content>
            """
        XCTAssertEqual(try entry(xhtml).summary, "Hello  worldboldxa c & yz")
        XCTAssertEqual(
            try entry(
                "<id>a</id><summary type=\"xhtml\">  <div><p>one</p>\n<p>two <em>three</em></p></div>  tail</summary>"
            ).summary,
            "tailonetwo three")
    }

    func testTheFirstOfEachElementCountsInAnyNamespace() throws {
        let e = try entry(
            """
            <id>c</id><dc:title>DC</dc:title><title>Atom</title><title>Second</title>
            <summary>  s1  </summary><summary>s2</summary><content>c</content>
            <dc:issued>2020</dc:issued><published>2019</published>
            <author><name> A1 </name><name>A1b</name></author><author><uri>x</uri></author><author><name> </name></author>
            <category term="t1"/><category term="t2" label="L2"/><category scheme="s"/>
            """)
        XCTAssertEqual(e.title, "DC")
        XCTAssertEqual(e.summary, "s1")
        XCTAssertEqual(e.published, "2020")
        XCTAssertEqual(e.authors, ["A1"])
        XCTAssertEqual(e.categories, ["t1", "L2"])
        XCTAssertNil(
            try entry("<id>d</id><summary> </summary><content>c</content>").summary,
            "an empty summary is not replaced by content")
        // Elements only count where the feed puts them.
        XCTAssertEqual(
            try entry("<id>n</id><title>T</title><x><title>nested</title><link href=\"x\"/></x>").links.count, 1)
    }

    func testLinksAsTheyWereRead() throws {
        let f = try feed(
            """
            <link rel="next" href="next?a=1&amp;b=2&#38;c=&#x26;&lt;d&gt;&#233;&quot;"/>
            <link rel="search" href="  https://example.org/search  " title="t&#9;a&#10;b"/>
            <link rel="start" href="/root" dc:title="nsTitle" title="plain"/>
            <link rel="http://opds-spec.org/facet" href="f1" title="F1" opds:facetGroup="G" opds:activeFacet="true" thr:count="5" xmlns:thr="http://purl.org/syndication/thread/1.0"/>
            <link rel="http://opds-spec.org/facet" href="f2" title="F2" opds:facetGroup="G" activeFacetCount="7"/>
            <link href="" rel="x"/><link rel="y"/>
            """)
        XCTAssertEqual(f.next?.href, "https://library.example/catalog/next?a=1&b=2&c=&%3Cd%3E%C3%A9%22")
        XCTAssertEqual(f.search?.href, "https://example.org/search")
        XCTAssertEqual(f.search?.title, "t\ta\nb")
        XCTAssertEqual(f.link("start")?.title, "nsTitle", "the first attribute of a name, in any namespace")
        XCTAssertEqual(f.facetGroups.first?.facets.map(\.count), [5, 7])
        XCTAssertEqual(f.facetGroups.first?.facets.map(\.active), [true, false])
        XCTAssertEqual(f.skipped, ["a link with an unusable address ()", "a link without an address"])
    }

    func testIndirectAcquisitionsAndAvailability() throws {
        let nested =
            (1...20).map { #"<opds:indirectAcquisition type="t\#($0)">"# }.joined()
            + String(repeating: "</opds:indirectAcquisition>", count: 20)
        let e = try entry(
            """
            <id>i</id><title>I</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="b" type="application/atom+xml;type=entry;profile=opds-catalog">
            <opds:indirectAcquisition type="application/vnd.adobe.adept+xml"><opds:indirectAcquisition type="application/epub+zip"/>
            <opds:indirectAcquisition><opds:indirectAcquisition type="x/y"/></opds:indirectAcquisition></opds:indirectAcquisition>
            <opds:availability status="Reserved" since="2026-01-01" until=" 2026-02-01T10:00:00.5+02:00 "/><opds:holds total="12" position="3"/>
            <opds:copies total="x" available="2"/><opds:availability status="available"/></link>
            <link rel="http://opds-spec.org/acquisition/open-access" href="o" type="t0">\(nested)</link>
            """)
        let borrow = try XCTUnwrap(e.borrowLink)
        XCTAssertEqual(
            borrow.indirect,
            [
                IndirectAcquisition(
                    type: "application/vnd.adobe.adept+xml",
                    children: [IndirectAcquisition(type: "application/epub+zip")])
            ])
        let availability = try XCTUnwrap(borrow.availability)
        XCTAssertEqual(availability.state, .reserved)
        XCTAssertEqual(availability.since, ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z"))
        XCTAssertEqual(availability.until?.timeIntervalSince1970, 1_769_932_800.5)
        XCTAssertEqual(
            [
                availability.holdsTotal, availability.holdPosition, availability.copiesTotal,
                availability.copiesAvailable
            ],
            [12, 3, nil, 2])
        // Sixteen levels of indirect acquisition are read; deeper ones are dropped.
        XCTAssertEqual(e.openAccessLinks.first.map(AcquisitionPath.paths)?.first?.types.count, 17)
    }

    func testEntityDeclarationsAnywhereAreRefused() {
        let late =
            "<!--" + String(repeating: "x", count: 70_000) + """
                --><!DOCTYPE feed [<!ENTITY e "expanded">]><feed \(atom)><id>d</id><title>t &e;</title></feed>
                """
        XCTAssertThrowsError(try CatalogDocument.parse(Data(late.utf8), url: base)) { error in
            XCTAssertTrue("\(error)".contains("entities"), "\(error)")
        }
        XCTAssertThrowsError(try XMLTree.parse(Data(late.utf8)))
    }

    func testLimits() {
        func refusal(_ text: String) -> String {
            do { _ = try CatalogDocument.parse(Data(text.utf8), url: base) } catch { return "\(error)" }
            return "read"
        }
        let open = "<feed \(atom)><id>x</id><title>t</title>"
        XCTAssertEqual(
            refusal(open + String(repeating: "<a>", count: 199) + String(repeating: "</a>", count: 199) + "</feed>"),
            "read")
        XCTAssertTrue(
            refusal(open + String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200) + "</feed>")
                .contains("more than 200 deep"))
        XCTAssertTrue(
            refusal(open + String(repeating: "<a/>", count: FeedXML.maxElements) + "</feed>").contains(
                "more than 400000 elements"))
        XCTAssertTrue(refusal(open + "<entry><id>a</id><title>T").contains("not well-formed"))
        XCTAssertTrue(refusal("<x:foo><a/></x:foo>").contains("its root element is <foo>"))
    }

    func testTheGenericTreeStillReadsSearchDescriptions() throws {
        let description = try OpenSearchDescription.parse(
            Data(
                """
                <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/"><ShortName> Search </ShortName>
                <Url type="application/atom+xml;profile=opds-catalog" template="/search?q={searchTerms}&amp;x=1"/></OpenSearchDescription>
                """.utf8), url: base)
        XCTAssertEqual(description.shortName, "Search")
        XCTAssertEqual(description.template, "https://library.example/search?q={searchTerms}&x=1")
        let tree = try XMLTree.parse(Data(#"<a xmlns:p="urn:p" p:x="1" y="2"><p:b>t<c/>u</p:b></a>"#.utf8))
        XCTAssertEqual(tree.attribute("x", namespace: "urn:p"), "1")
        XCTAssertEqual(tree.child("b")?.namespace, "urn:p")
        XCTAssertEqual(tree.child("b")?.text, "tu")
    }
}
