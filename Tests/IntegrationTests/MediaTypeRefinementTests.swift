import Foundation
import TestSupport
import XCTest

/// format.h's promise: a generic sniffed type (a `.fb2` arrives as application/xml) is refined by what a plugin
/// declares, its extension or an XML root element its media type names, so the plugin's probe sees its own type;
/// `shelf sniff` shows both and `shelf info` the plugin's type. Content still wins over the extension.
final class MediaTypeRefinementTests: XCTestCase {
    var shelf: ShelfProcess!

    /// A FictionBook stand-in that, as a plugin may, trusts the host's media type: it claims only
    /// application/x-fictionbook+xml, and its manifest's title says what type `open` was given.
    static let plugin = """
        #include <shelf/shelf.h>
        #include <stdlib.h>
        struct shelf_publication { char type[128]; };
        static const char *wanted = "application/x-fictionbook+xml";
        static shelf_status probe(const shelf_input *in, int32_t *confidence) {
            *confidence = in->media_type != NULL && strcmp(in->media_type, wanted) == 0 ? 100 : 0;
            return SHELF_OK;
        }
        static shelf_status open_(const shelf_input *in, const char *options, shelf_publication **out, shelf_error *err) {
            (void)options;
            *out = calloc(1, sizeof **out);
            if (*out == NULL) return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "no memory");
            snprintf((*out)->type, sizeof (*out)->type, "%s", in->media_type != NULL ? in->media_type : "none");
            return SHELF_OK;
        }
        static shelf_status manifest(shelf_publication *p, const shelf_writer *out, shelf_error *err) {
            char text[512];
            (void)err;
            snprintf(text, sizeof text, "{\\"metadata\\":{\\"title\\":\\"Opened as %s\\"},\\"links\\":[],"
                     "\\"readingOrder\\":[{\\"href\\":\\"body.xml\\",\\"type\\":\\"application/xml\\"}]}", p->type);
            return shelf_write_string(out, text);
        }
        static shelf_status resource(shelf_publication *p, const char *href, const shelf_writer *out, shelf_error *err) {
            (void)p; (void)out;
            return shelf_error_set(err, SHELF_E_NOT_FOUND, href, "no such resource");
        }
        static void close_(shelf_publication *p) { free(p); }
        static const shelf_format_v1 format = { sizeof(shelf_format_v1), probe, open_, manifest, resource, close_ };
        static const void *get_extension(const char *id) { return strcmp(id, SHELF_EXT_FORMAT) == 0 ? &format : NULL; }
        static const char *const types[] = { "application/x-fictionbook+xml", NULL };
        static const char *const extensions[] = { "fb2", NULL };
        static const shelf_plugin_descriptor descriptor = {
            sizeof(shelf_plugin_descriptor), SHELF_ABI_MAJOR, SHELF_ABI_MINOR, "org.example.fb2", "FictionBook stand-in",
            "1.0.0", "MIT", NULL, NULL, NULL, 0, types, extensions, NULL, NULL, NULL, get_extension };
        SHELF_EXPORT const shelf_plugin_descriptor *shelf_plugin_entry(void) { return &descriptor; }
        """

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        let folder = shelf.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = shelf.home.appendingPathComponent("fb2.c")
        try Self.plugin.write(to: source, atomically: true, encoding: .utf8)
        try CCompiler.sharedLibrary(
            sources: [source], output: folder.appendingPathComponent("libshelf-fb2.so"),
            includes: CCompiler.pluginIncludes)
        shelf.environment["SHELF_PLUGIN_PATH"] = folder.path
    }

    override func tearDown() { shelf.cleanUp() }

    func file(_ name: String, _ text: String) throws -> String {
        let url = shelf.home.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func json(_ arguments: [String], status: Int32 = 0) throws -> [String: Any] {
        let result = try shelf.run(arguments + ["--json"])
        XCTAssertEqual(result.status, status, result.stderr)
        return try XCTUnwrap(try result.json() as? [String: Any], result.stdout + result.stderr)
    }

    func testADeclaredExtensionRefinesApplicationXML() throws {
        let book = try file("tale.fb2", "<?xml version=\"1.0\"?>\n<book><p>Once.</p></book>\n")
        let sniff = try json(["sniff", book])
        XCTAssertEqual(sniff["sniffedMediaType"] as? String, "application/xml")
        XCTAssertEqual(sniff["mediaType"] as? String, "application/x-fictionbook+xml")
        XCTAssertEqual(sniff["opensWith"] as? String, "org.example.fb2")
        let info = try json(["info", book])
        XCTAssertEqual(info["title"] as? String, "Opened as application/x-fictionbook+xml")
        XCTAssertEqual(
            info["mediaType"] as? String, "application/x-fictionbook+xml", "shelf info shows the plugin's media type")
        let human = try shelf.run(["info", book])
        XCTAssertTrue(human.stdout.contains("(application/x-fictionbook+xml)"), human.stdout)
    }

    func testADeclaredRootElementRefinesApplicationXML() throws {
        let book = try file(
            "tale.xml",
            "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<fb:FictionBook xmlns:fb=\"http://www.gribuser.ru/xml/fictionbook/2.0\"><body/></fb:FictionBook>\n"
        )
        let sniff = try json(["sniff", book])
        XCTAssertEqual(sniff["mediaType"] as? String, "application/x-fictionbook+xml")
        XCTAssertEqual(try json(["info", book])["title"] as? String, "Opened as application/x-fictionbook+xml")
    }

    func testContentWinsOverTheExtension() throws {
        let fake = try file("not-a-book.fb2", "%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj << >> endobj\n")
        let sniff = try json(["sniff", fake], status: 69)
        XCTAssertEqual(sniff["mediaType"] as? String, "application/pdf")
        XCTAssertNil(sniff["opensWith"] as? String)
        let plain = try file("notes.xml", "<?xml version=\"1.0\"?>\n<notes/>\n")
        XCTAssertEqual(
            try json(["sniff", plain], status: 69)["mediaType"] as? String, "application/xml",
            "nothing declared refines <notes>")
    }
}
