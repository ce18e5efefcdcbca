import XCTest
final class AudiobookPlaceholderTests: XCTestCase { func testNothing() {} }
