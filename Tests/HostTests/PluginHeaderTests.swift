import Foundation
import XCTest

/// The public C headers as a plugin author's compiler sees them: C99, strict warnings.
final class PluginHeaderTests: XCTestCase {
    static let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/PluginAPI/include").standardized.path

    /// Compiles `source` (syntax and types only); the compiler's messages when it fails, nil when it compiles.
    func compilerComplaint(_ source: String, extraFlags: [String] = []) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plugin.c")
        try Data(source.utf8).write(to: file)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments =
            ["cc", "-std=c99", "-Wall", "-Werror", "-pedantic", "-fsyntax-only"] + extraFlags + [
                "-I", Self.include, file.path
            ]
        let errors = Pipe()
        cc.standardError = errors
        try cc.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        cc.waitUntilExit()
        return cc.terminationStatus == 0 ? nil : String(decoding: message, as: UTF8.self)
    }

    func testTheEntryFunctionAsDocumentedCompiles() throws {
        XCTAssertNil(
            try compilerComplaint(
                """
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
            "SHELF_EXPORT int shelf_plugin_entry;"
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
        XCTAssertNotNil(
            try compilerComplaint("#include <shelf/format.h>\n" + uses), "format.h should not bring the HTTP service")
    }
}

/// ABI 1.1 (plugin.h, "Minor versions"): what it added, and that it broke no source written for 1.0.
extension PluginHeaderTests {
    /// Every function of the ABI says beside it from which threads it is called: a "Threading:" line in the comment
    /// just above it (one global list said it before 1.1, far from the function an author was writing).
    func testEveryFunctionSaysItsThreadRuleBesideIt() throws {
        let folder = URL(fileURLWithPath: PluginHeaderTests.include).appendingPathComponent("shelf")
        let function = try NSRegularExpression(pattern: #"^\s*(?:[A-Za-z_][A-Za-z0-9_ ]*\*?\s*)\(\*([a-z_]+)\)\("#)
        var silent: [String] = []
        for file in ["plugin.h", "format.h", "audio.h", "readinglist.h", "http.h", "credentials.h"] {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(
                separatedBy: "\n")
            for (i, line) in lines.enumerated() where !line.contains("typedef") {
                guard let match = function.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                    let range = Range(match.range(at: 1), in: line)
                else { continue }
                // The comment above: the lines before the function back to the previous declaration.
                var j = i - 1, comment = ""
                while j >= 0,
                    lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("*")
                        || lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("/*")
                {
                    comment = lines[j] + "\n" + comment
                    j -= 1
                }
                // A shelf_writer's `write` says it once, for the writer.
                let name = String(line[range])
                if !comment.contains("Threading"), name != "write" { silent.append("\(file): \(name)") }
            }
        }
        XCTAssertEqual(silent, [], "functions without their thread rule beside them")
    }

    /// A plugin written for 1.0, tables filled in order without naming the fields, compiles against the 1.1 headers
    /// with every warning an error: 1.1 grew no table a plugin fills, only the host's shelf_host and a new id.
    func testAOneZeroSourceStillCompilesWithEveryWarning() throws {
        XCTAssertNil(
            try compilerComplaint(
                """
                #include <shelf/format.h>
                static shelf_status probe(const shelf_input *i, int32_t *c) { (void)i; *c = 0; return SHELF_OK; }
                static shelf_status open_(const shelf_input *i, const char *o, shelf_publication **p, shelf_error *e) { (void)i; (void)o; (void)p; (void)e; return SHELF_E_UNSUPPORTED; }
                static shelf_status manifest(shelf_publication *p, const shelf_writer *w, shelf_error *e) { (void)p; (void)w; (void)e; return SHELF_OK; }
                static shelf_status resource(shelf_publication *p, const char *h, const shelf_writer *w, shelf_error *e) { (void)p; (void)h; (void)w; (void)e; return SHELF_OK; }
                static void close_(shelf_publication *p) { (void)p; }
                static const shelf_format_v1 format = { sizeof format, probe, open_, manifest, resource, close_ };
                static const void *get(const char *id) { return strcmp(id, SHELF_EXT_FORMAT) == 0 ? &format : NULL; }
                static const char *const types[] = { "text/x-old", NULL };
                static const shelf_plugin_descriptor d = { sizeof d, SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "org.example.old", "Old", "1.0", "MIT",
                    NULL, NULL, NULL, 0, types, NULL, NULL, NULL, NULL, get };
                SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &d; }
                """, extraFlags: ["-Wextra"]))
    }

    /// What 1.1 added compiles as plugin.h shows it: the plugin's own path, read only when the host has it, and the
    /// probe that can say why.
    func testTheOneOneAdditionsCompileAsDocumented() throws {
        XCTAssertNil(
            try compilerComplaint(
                """
                #include <shelf/format.h>
                #if SHELF_ABI_MINOR < 1
                #error "ABI 1.1 expected"
                #endif
                static const char *own = NULL;
                shelf_status init(const shelf_host *host, shelf_error *err);
                shelf_status init(const shelf_host *host, shelf_error *err)
                {
                    (void)err;
                    if (SHELF_HAS_FIELD(host, shelf_host, plugin_path) && host->plugin_path != NULL) own = host->plugin_path;
                    return SHELF_OK;
                }
                static shelf_status why(const shelf_input *i, int32_t *c, shelf_error *e)
                {
                    (void)i; *c = 0;
                    return shelf_error_set(e, SHELF_E_UNSUPPORTED, NULL, "a newer edition of this format");
                }
                const shelf_probe_v1 probe_table = { sizeof probe_table, why };
                const char *probe_id = SHELF_EXT_PROBE;
                """, extraFlags: ["-Wextra"]))
    }
}
