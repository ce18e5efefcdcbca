import Foundation

/// Well-formed files of formats a plugin may not claim: each plugin is fed those it does not declare
/// (by media type as shelf sniffs it, or by extension), so that a probe claiming everything, or an `open`
/// that trips over a valid file of another kind, shows.
enum ForeignInputs {
    struct Input {
        let name: String
        let bytes: [UInt8]
    }

    static let all: [Input] = [
        Input(
            name: "catalog.xml",
            bytes: Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <catalog xmlns="http://example.org/catalog"><book id="b1"><title>Not a book</title><price>9.50</price></book>\
                <book id="b2"><title>Nor this</title></book></catalog>

                """.utf8)),
        Input(
            name: "page.xhtml",
            bytes: Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE html>
                <html xmlns="http://www.w3.org/1999/xhtml"><head><title>A page</title></head>
                <body><h1>A page</h1><p>Well-formed XHTML that is a web page, not a book.</p></body></html>

                """.utf8)),
        Input(
            name: "drawing.svg",
            bytes: Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>

                """.utf8)),
        Input(
            name: "page.html",
            bytes: Array(
                """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Tag soup</title></head>
                <body><p>An HTML page<br>with unclosed tags<p>and more.</body></html>

                """.utf8)),
        Input(
            name: "data.json",
            bytes: Array(#"{"kind": "not a book", "items": [1, 2, 3], "nested": {"a": [true, null]}}"#.utf8)),
        Input(
            name: "table.csv",
            bytes: Array("isbn,title,author\n9780142402498,Pippi Longstocking,Astrid Lindgren\n".utf8)),
        Input(
            name: "document.pdf",
            bytes: Array(
                """
                %PDF-1.4
                1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
                2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj
                trailer << /Root 1 0 R >>
                %%EOF

                """.utf8)),
        Input(
            name: "image.png",
            bytes: [
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89,
                0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82
            ])
    ]

    /// The inputs that are foreign to a plugin declaring `mediaTypes` and `extensions`, written into `folder`.
    static func files(for mediaTypes: [String], extensions: [String], in folder: String) throws -> [(
        name: String, input: PublicationInput
    )] {
        try all.compactMap { foreign in
            let path = folder + "/" + foreign.name
            _ = FileManager.default.createFile(atPath: path, contents: Data(foreign.bytes))
            let input = try PublicationInput(path: path)
            if extensions.contains(input.fileExtension) { return nil }
            if let type = input.mediaType, mediaTypes.contains(type) { return nil }
            return (foreign.name, input)
        }
    }
}
