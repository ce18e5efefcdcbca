import XCTest
final class ReadingListPlaceholderTests: XCTestCase { func testNothing() {} }
