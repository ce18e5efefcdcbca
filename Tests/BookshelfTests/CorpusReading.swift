import CZip
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Foundation
import Host
import TestSupport
import XCTest

/// The corpus books opened for reading in this process, through the plugins of this build, as `shelf read` opens
/// them: one shelf home for the whole run, each book added by link.
enum CorpusReading {
    static let home: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-corpus-reading-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let bookshelf: Result<Bookshelf, Error> = Result {
        try Shelf(
            pluginPaths: [ShelfProcess.buildDirectory.path], environment: ["SHELF_HOME": home.path, "HOME": home.path]
        ).bookshelf()
    }

    /// Every EPUB of the corpus, by file name; skips the test (saying why) when the corpus is not beside the checkout.
    static func books() throws -> [URL] {
        guard let root = Corpus.root else {
            throw XCTSkip("the shared corpus is not beside this checkout (../shared/corpus)")
        }
        let folder = root.appendingPathComponent("epub")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".epub") }
            .sorted()
        return names.map { folder.appendingPathComponent($0) }
    }

    /// A reading session on the book at `url`, at `width` columns.
    static func session(_ url: URL, width: Int = 72) throws -> (ShelfBook, ReadingSession) {
        let bookshelf = try bookshelf.get()
        let book = try bookshelf.add(path: url.path, link: true, id: "corpus:" + url.lastPathComponent).book
        return (book, try BookReader(bookshelf: bookshelf).session(book, width: width))
    }

    /// Reads one entry with libzip (not through the plugin's archive reader).
    static func entry(_ name: String, in path: String) -> Data? {
        var code: Int32 = 0
        guard let za = zip_open(path, ZIP_RDONLY, &code) else { return nil }
        defer { zip_discard(za) }
        var st = zip_stat_t()
        guard zip_stat(za, name, 0, &st) == 0, st.size < 64 << 20, let f = zip_fopen(za, name, 0) else { return nil }
        defer { zip_fclose(f) }
        var data = Data(count: Int(st.size))
        let n = data.withUnsafeMutableBytes { zip_fread(f, $0.baseAddress, st.size) }
        return n == Int64(st.size) ? data : nil
    }

    /// Letters and digits, lowercased: how words are compared whatever the wrapping, decorations and punctuation.
    static func letters(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
                    .flatMap { $0.properties.lowercaseMapping.unicodeScalars }))
    }
}

/// The first words of an element of an XHTML document, read with Foundation's own XML parser (not the plugin's):
/// the element's text, or when it has none (an empty anchor), the text after it, in document order, up to the first
/// element boundary after a letter (a heading's text, not the list numbers or picture captions a reader adds after
/// it); what a rendering leaves out (the head, scripts, styles, `hidden` elements) left out.
final class ElementWords: NSObject, XMLParserDelegate {
    private let id: String?
    private let wanted: Int
    private var started = false
    private var skipping = 0
    private(set) var words = ""
    private(set) var found = false

    /// `id` nil: the body's first words.
    init(id: String?, letters: Int) {
        self.id = id
        self.wanted = letters
    }

    static func read(_ data: Data, id: String?, letters: Int = 16) -> (found: Bool, words: String) {
        let reader = ElementWords(id: id, letters: letters)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldProcessNamespaces = true
        _ = parser.parse()
        return (reader.found, reader.words)
    }

    private var enough: Bool { CorpusReading.letters(words).unicodeScalars.count >= wanted }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        if skipping > 0 || ["head", "script", "style", "template", "noscript"].contains(local)
            || attributes["hidden"] != nil
        {
            skipping += 1
            return
        }
        if started, hasLetters { parser.abortParsing(); return }
        if !started {
            let matches =
                id.map { attributes["id"] == $0 || (local == "a" && attributes["name"] == $0) } ?? (local == "body")
            if matches { started = true; found = true }
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if skipping > 0 { skipping -= 1; return }
        if started, hasLetters { parser.abortParsing() }
    }

    private var hasLetters: Bool { !CorpusReading.letters(words).isEmpty }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard started, skipping == 0 else { return }
        words += string
        if enough { parser.abortParsing() }
    }
}
