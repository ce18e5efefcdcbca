import Foundation
import Host
import ShelfPlugins
import TestSupport
import XCTest

/// An export file that is not CSV used to be read as empty (`try?`, issue 13) and appended to: what it held was
/// buried under a second header, and entries already in it written twice. Now the push fails, saying what to do.
final class GoodreadsExportFileTests: ConnectorTestCase {
    func testAnExportFileThatIsNotCSVIsNotAppendedTo() throws {
        let export = home.appendingPathComponent("import.csv").path
        let damaged = "Book Id,Title,Author\n1,\"Mort,Terry Pratchett\n"  // a quote never closed
        try damaged.write(toFile: export, atomically: true, encoding: .utf8)
        let plugin = try LoadedPlugin(
            path: ShelfProcess.buildDirectory.appendingPathComponent("libshelf-goodreads.so").path)
        try plugin.initialise(directories: ConnectorServices.credentialDirectories)
        let connection = try Connector(plugin: plugin, service: "goodreads").connect(settings: ["exportFile": export])
        XCTAssertThrowsError(
            try connection.push([ReadingListEntry(title: "Mort", authors: ["Terry Pratchett"], shelf: "read")])
        ) { error in
            XCTAssertTrue("\(error)".contains("not a CSV file"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: export, encoding: .utf8), damaged, "left as it was")
    }
}
