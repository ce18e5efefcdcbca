@testable import Host
@testable import ShelfPlugins
import PluginAPI
import XCTest

/// SHELF_LOG as plugin.h documents it: a level for every plugin, PLUGIN-ID:LEVEL for one, a trailing '*' for a
/// family; the most specific entry wins.
final class PluginLogFilterTests: XCTestCase {
    func testWithoutSHELF_LOGWarningsAndErrorsAreShown() {
        let filter = PluginLogFilter(nil)
        XCTAssertFalse(filter.shows(SHELF_LOG_INFO, from: "org.example.fb2"))
        XCTAssertTrue(filter.shows(SHELF_LOG_WARNING, from: "org.example.fb2"))
    }

    func testDebugForEveryPlugin() {
        XCTAssertTrue(PluginLogFilter("debug").shows(SHELF_LOG_DEBUG, from: "org.shelf.epub3"))
    }

    func testOnePluginsDebugLeavesTheOthersAtWarning() {
        let filter = PluginLogFilter("org.example.fb2:debug")
        XCTAssertTrue(filter.shows(SHELF_LOG_DEBUG, from: "org.example.fb2"))
        XCTAssertFalse(filter.shows(SHELF_LOG_INFO, from: "org.shelf.epub3"))
        XCTAssertFalse(filter.shows(SHELF_LOG_DEBUG, from: "org.example.fb2x"), "an id is matched whole")
    }

    func testTheMostSpecificEntryWins() {
        let filter = PluginLogFilter(
            "error, org.example.*:info, org.example.fb2:debug, org.example.noisy:none, junk, x:loud")
        XCTAssertEqual(filter.threshold(for: "org.example.fb2"), SHELF_LOG_DEBUG)
        XCTAssertEqual(filter.threshold(for: "org.example.other"), SHELF_LOG_INFO)
        XCTAssertFalse(filter.shows(SHELF_LOG_ERROR, from: "org.example.noisy"), "none silences a plugin")
        XCTAssertEqual(filter.threshold(for: "org.shelf.epub3"), SHELF_LOG_ERROR)
        XCTAssertEqual(filter.rules.count, 3, "unreadable entries are ignored")
    }
}
