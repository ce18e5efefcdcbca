import XCTest
final class BookshelfPlaceholderTests: XCTestCase { func testNothing() {} }
