import Foundation
import PluginKit

/// Where a reader opens a book the first time: chapter one, decided from what the book says about itself, as the
/// reading apps that get it right do (a "start reading location", not the first file).
///
/// The rule, strongest word first:
/// 1. **The book names its body.** The EPUB 3 landmark `bodymatter`, else the EPUB 2 guide's first `text` (or
///    `start`) reference. A place inside a file (`content.xhtml#bodymatter`) is taken as it is. A whole file is
///    taken too, unless it is itself front matter by rule 3 (some tools name the title page or a dedication as
///    the text): then reading goes on from there to the first item that is not.
/// 2. **Otherwise, the first item whose content says `epub:type="bodymatter"`** (on its body or first section).
/// 3. **Otherwise the reading order is read from the front**, and the first item that is not front matter opens.
///    An item is front matter when
///    - it is the cover (the guide's or the landmarks' cover, `epub:type="cover"`, a first file named cover) or
///      the navigation document;
///    - the guide or the landmarks name it as a title page, contents, copyright page, dedication, colophon,
///      acknowledgements or list of illustrations/tables;
///    - the `epub:type` of its body or first section says front matter (`frontmatter`, `titlepage`,
///      `halftitlepage`, `toc`, `copyright-page`, `dedication`, `epigraph`, `foreword`, `preface`, `colophon`, …)
///      and not `bodymatter`, `chapter`, `part`, `volume` or `division`, which settle it as body;
///    - its title in the table of contents names front matter ("Cover", "Title page", "Contents", "Copyright",
///      "Dedication", "Front page…", and the same in a few languages);
///    - most of its text is links into the book: a contents page by another name ("CONTENTS" and a list of poems);
///    - it holds little text (under 1000 characters: a title page, a half-title, a dedication, a picture) and the
///      table of contents does not list it, or lists it under (a title holding) the book's own title. A short item
///      the table of contents lists under a title of its own ("Part 1", "Book I. Inscriptions") is a part title:
///      body.
///    Only the first 24 items are read; a fixed-layout book's pages count as little text, as they are.
/// 4. **When every item read is front matter** (a picture book, a test document), the first item that is not the
///    cover, as before; with none, the first.
extension EPUBPublication {
    public struct Opening: Equatable {
        /// The reading-order item.
        public let index: Int
        /// The element the book names inside it, if any.
        public let fragment: String?
    }

    static let frontMatterTypes: Set<String> = [
        "frontmatter", "cover", "titlepage", "title-page", "halftitlepage", "half-title-page", "toc", "copyright-page",
        "dedication", "epigraph", "foreword", "preface", "colophon", "imprint", "imprimatur", "acknowledgments",
        "acknowledgements", "contributors", "other-credits", "errata", "loi", "lot", "lov", "landmarks", "seriespage"
    ]
    static let bodyMatterTypes: Set<String> = ["bodymatter", "chapter", "part", "volume", "division"]
    /// Titles of front matter in a table of contents, folded (lowercase, letters and digits only).
    static let frontMatterTitles: Set<String> = [
        "cover", "title", "titlepage", "halftitle", "halftitlepage", "frontpage", "contents", "tableofcontents",
        "copyright", "copyrightpage", "dedication", "colophon", "acknowledgements", "acknowledgments", "imprint",
        "couverture", "titre", "pagedetitre", "tabledesmatieres", "sommaire", "dedicace",
        "titelseite", "titelblatt", "inhalt", "inhaltsverzeichnis", "widmung",
        "portada", "indice", "contenido", "dedicatoria", "copertina", "frontespizio", "sommario",
        "表紙", "目次", "扉", "封面", "目录", "目錄", "版权", "版權"
    ]
    static let littleText = 1000
    static let itemsRead = 24

    /// Where the book opens (see the rule above).
    public func opening() -> Opening {
        if let cachedOpening { return cachedOpening }
        let decided = decideOpening()
        cachedOpening = decided
        return decided
    }

    public func startIndex() -> Int { opening().index }

    private func decideOpening() -> Opening {
        let order = book.readingOrder
        guard !order.isEmpty else { return Opening(index: 0, fragment: nil) }
        var named: Opening?
        if let l = book.navigation.landmarks.first(where: { ($0.rel ?? []).contains("bodymatter") }),
            let i = itemIndex(href: l.href)
        {
            named = Opening(index: i, fragment: Paths.splitFragment(l.href).fragment.map(Paths.percentDecode))
        } else {
            for g in book.opf.guide where g.type == "text" || g.type == "start" {
                if let i = order.firstIndex(where: { $0.item.path == g.path }) {
                    named = Opening(index: i, fragment: g.fragment.map(Paths.percentDecode))
                    break
                }
            }
        }
        if let named, named.fragment?.isEmpty == false { return named }
        if named == nil,
            let marked = (0..<min(order.count, Self.itemsRead)).first(where: {
                structureTypes(of: $0).contains("bodymatter")
            })
        {
            return Opening(index: marked, fragment: nil)
        }
        let from = named?.index ?? 0
        for i in from..<min(order.count, from + Self.itemsRead) where !isFrontMatter(i) {
            return Opening(index: i, fragment: nil)
        }
        if let named { return Opening(index: named.index, fragment: nil) }
        let first = order.firstIndex { $0.spine.linear && !book.coverPagePaths.contains($0.item.path) } ?? 0
        return Opening(index: first, fragment: nil)
    }

    /// Whether reading-order item `index` is front matter, by what the book says of it (see the rule above).
    func isFrontMatter(_ index: Int) -> Bool {
        let item = book.readingOrder[index]
        let path = item.item.path
        if book.coverPagePaths.contains(path) || path == book.navDocumentPath { return true }
        if namedFrontMatterPaths.contains(path) { return true }
        let root = document(of: index)
        let types = root.map(Self.structureTypes) ?? []
        if !types.isDisjoint(with: Self.bodyMatterTypes) { return false }
        if !types.isDisjoint(with: Self.frontMatterTypes) { return true }
        let title = item.title.map(Self.fold)
        if let title, Self.namesFrontMatter(title) { return true }
        guard let root else { return title == nil }
        let characters = Self.characters(TextRenderer.renderUTF8(root, width: 100_000, decorate: false))
        // Most of its words are links into the book: a contents page.
        if characters > 0, Self.linkedCharacters(root) * 2 >= characters { return true }
        guard characters < Self.littleText else { return false }
        guard let title, !title.isEmpty else { return true }
        // Listed under the book's own title ("Calibre Quick Start Guide" for "Quick Start Guide"): its title page.
        guard let bookTitle = book.title.map(Self.fold), !bookTitle.isEmpty else { return false }
        return title.contains(bookTitle)
    }

    /// Whether a folded table-of-contents title names front matter: one of the titles, or one of the longer ones
    /// with more words after it ("Front Page (hebrew version)").
    static func namesFrontMatter(_ title: String) -> Bool {
        frontMatterTitles.contains(title)
            || ["frontpage", "titlepage", "tableofcontents", "halftitle", "copyrightpage"].contains {
                title.hasPrefix($0)
            }
    }

    /// Characters other than white space in UTF-8 text.
    static func characters<C: Sequence>(_ bytes: C) -> Int where C.Element == UInt8 {
        bytes.reduce(0) { $0 + (($1 & 0xC0) == 0x80 || $1 <= 0x20 ? 0 : 1) }
    }

    /// Characters of the text of links that stay in the book (not to the web, not mail).
    static func linkedCharacters(_ root: LibXMLElement) -> Int {
        root.descendants("a").reduce(0) { sum, a in
            guard let href = a.attr("href"), !href.isEmpty, !Paths.isExternal(href) else { return sum }
            return sum + characters(a.text.utf8)
        }
    }

    /// The parsed content document of reading-order item `index`, when it is one shelf can read.
    private func document(of index: Int) -> LibXMLElement? {
        let content = book.readingOrder[index].content
        guard !content.mediaType.hasPrefix("image/"), book.encryption.protection(of: content.path) == nil else {
            return nil
        }
        // Nil: a document shelf cannot read is passed over when looking for where the book opens.
        return (try? book.rawDocument(at: content.path))?.root
    }

    private func structureTypes(of index: Int) -> Set<String> { document(of: index).map(Self.structureTypes) ?? [] }

    /// The files the guide or the landmarks name as front matter (a title page, the contents, a dedication…).
    private var namedFrontMatterPaths: Set<String> {
        var paths = Set<String>()
        for g in book.opf.guide where Self.frontMatterTypes.contains(g.type) || g.type == "acknowledgements" {
            paths.insert(g.path)
        }
        for l in book.navigation.landmarks
        where !Set(l.rel ?? []).isDisjoint(with: Self.frontMatterTypes.subtracting(["frontmatter"])) {
            // A landmark inside a file names a part of it, not the file.
            let (raw, fragment) = Paths.splitFragment(l.href)
            if fragment == nil, let p = book.entryPath(forHref: raw) { paths.insert(p) }
        }
        return paths
    }

    /// The `epub:type` words of the body and of its first elements down to the first with text of its own: how a
    /// content document says what it is (`<section epub:type="frontmatter titlepage">`).
    static func structureTypes(_ root: LibXMLElement) -> Set<String> {
        var types = Set<String>()
        var current = root.child("body") ?? root
        for _ in 0..<4 {
            for word in (current.attr("type", ns: NS.epub) ?? "").split(whereSeparator: {
                $0 == " " || $0 == "\t" || $0 == "\n"
            }) {
                types.insert(word.lowercased())
            }
            guard let next = current.elements.first(where: { !$0.isNamed("a") && !$0.isNamed("span") }) else { break }
            current = next
        }
        return types
    }

    /// Letters and digits, lowercased, accents dropped: "Table of Contents" and "TABLE OF CONTENTS" are the same.
    static func fold(_ s: String) -> String {
        String(
            String.UnicodeScalarView(
                s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars
                    .filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }))
    }
}
