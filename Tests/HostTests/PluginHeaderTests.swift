import Foundation
import XCTest

/// The public C headers as a plugin author's compiler sees them: C99, strict warnings.
final class PluginHeaderTests: XCTestCase {
    static let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/PluginAPI/include").standardized.path

    /// Compiles `source` (syntax and types only); the compiler's messages when it fails, nil when it compiles.
    func compilerComplaint(_ source: String) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plugin.c")
        try Data(source.utf8).write(to: file)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-std=c99", "-Wall", "-Werror", "-pedantic", "-fsyntax-only", "-I", Self.include, file.path]
        let errors = Pipe()
        cc.standardError = errors
        try cc.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        cc.waitUntilExit()
        return cc.terminationStatus == 0 ? nil : String(decoding: message, as: UTF8.self)
    }

    func testTheEntryFunctionAsDocumentedCompiles() throws {
        XCTAssertNil(try compilerComplaint("""
            #include <shelf/shelf.h>
            static const shelf_plugin_descriptor descriptor = { sizeof descriptor, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "org.example.x" };
            SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
            """))
    }

    func testAnEntryFunctionWithAnotherSignatureDoesNotCompile() throws {
        for wrong in [
            "SHELF_EXPORT shelf_plugin_descriptor *shelf_plugin_entry(void) { return 0; }",  // not const
            "SHELF_EXPORT const void *shelf_plugin_entry(void) { return 0; }",
            "SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(int version) { (void)version; return 0; }",
            "SHELF_EXPORT int shelf_plugin_entry;",
        ] {
            let complaint = try compilerComplaint("#include <shelf/plugin.h>\n" + wrong + "\n")
            XCTAssertNotNil(complaint, wrong)
            XCTAssertTrue(complaint?.contains("shelf_plugin_entry") ?? false, complaint ?? "")
        }
    }

    /// The companion files service (files.h, issue 30) compiles under the same strict C99 as the other headers.
    func testTheCompanionFilesHeaderCompiles() throws {
        let uses = """
        static int use(const shelf_host *host, const char *book) {
            const shelf_host_files_v1 *files = host->get_service(host, SHELF_HOST_FILES);
            int fd = -1;
            return files && files->open_companion(host, book, "tracks/01.mp3", &fd, NULL) == SHELF_OK ? fd : -1;
        }
        int main(void) { return use(NULL, "book.json") == -2; }
        """
        XCTAssertNil(try compilerComplaint("#include <shelf/files.h>\n" + uses))
        XCTAssertNil(try compilerComplaint("#include <shelf/shelf.h>\n" + uses))
    }

    /// The host services have headers of their own; readinglist.h still brings them, as it did in 1.0.
    func testTheHostServicesHaveTheirOwnHeadersAndReadingListStillIncludesThem() throws {
        let uses = """
            static shelf_http_request request = { sizeof request, SHELF_HTTP_NO_RETRY, "GET", "https://example.org/" };
            static const char *ids[] = { SHELF_HOST_HTTP, SHELF_HOST_CREDENTIALS };
            size_t sizes(void) { return sizeof(shelf_host_http_v1) + sizeof(shelf_host_credentials_v1) + sizeof request + sizeof ids; }
            """
        XCTAssertNil(try compilerComplaint("#include <shelf/http.h>\n#include <shelf/credentials.h>\n" + uses))
        XCTAssertNil(try compilerComplaint("#include <shelf/readinglist.h>\n" + uses))
        XCTAssertNotNil(try compilerComplaint("#include <shelf/format.h>\n" + uses), "format.h should not bring the HTTP service")
    }
}
