import XCTest
final class EPUBPlaceholderTests: XCTestCase { func testNothing() {} }
