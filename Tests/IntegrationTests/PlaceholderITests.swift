import XCTest
final class PlaceholderITests: XCTestCase { func testNothing() {} }
