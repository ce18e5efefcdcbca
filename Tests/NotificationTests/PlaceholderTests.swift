import XCTest
final class NotificationPlaceholderTests: XCTestCase { func testNothing() {} }
