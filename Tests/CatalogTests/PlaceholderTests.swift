import XCTest
final class CatalogPlaceholderTests: XCTestCase { func testNothing() {} }
