import Foundation
import Host

/// The locator named by --chapter, --position or --locator; nil means where a reader opens the book.
func requestedLocator(_ args: Arguments, _ book: BookFile) throws -> Locator? {
    let chosen = ["--chapter", "--position", "--locator"].filter { args.value($0) != nil }
    guard chosen.count <= 1 else { throw CommandUsage.onlyOneOf(["--chapter", "--position", "--locator"]).error }
    let order = book.manifest.readingOrder
    if let chapter = try args.int("--chapter", in: 1...Int(Int32.max)) {
        guard chapter <= order.count else {
            throw CommandUsage.chapterPastTheEnd(chapter: chapter, items: order.count, book: book.path).error
        }
        let link = order[chapter - 1]
        return Locator(href: link.href, type: link.type ?? "", title: link.title)
    }
    if let position = try args.int("--position", in: 1...Int(Int32.max)) {
        let positions = try book.positions()
        guard position <= positions.count else {
            throw CommandUsage.positionPastTheEnd(position: position, positions: positions.count, book: book.path).error
        }
        return positions[position - 1]
    }
    if let json = args.value("--locator") {
        do { return try Locator.parse(json) } catch {
            throw CommandUsage.notALocator.error
        }
    }
    return nil
}

let renderCommand = Command(
    name: "render", summary: "show a chapter as text or HTML with reader settings",
    usage:
        "shelf render FILE [--chapter N | --position N | --locator JSON] [--as text|html] [--width N] [--font-scale PCT] [--font publisher|serif|sans] [--theme day|night|sepia] [--json]",
    details: """
        Renders one reading-order item. With no location, rendering starts where a reader opens the book
        (after the cover). --as text wraps to --width columns (default: the terminal's, or 72); --as html
        applies the font scale in percent, the font (publisher: the book's own) and the theme; what is not given here comes from
        `shelf settings` (the book's own when the file is on the shelf, else the global ones). --json prints
        {"locator": ..., "content": "..."}.
        """ + fileArgumentHelp,
    valueOptions: ["--chapter", "--position", "--locator", "--as", "--width", "--font-scale", "--font", "--theme"],
    positionals: 1...1
) { args, context in
    let book = try context.shelf.openFile(args.positionals[0])
    // The patron's stored settings (`shelf settings`, the book's own over the global ones) unless overridden here.
    let stored = context.shelf.readerSettings(forFile: args.positionals[0])
    let scale = try args.value("--font-scale").map {
        guard let pct = ReaderSettings.fontScale(typed: $0) else {
            throw CommandUsage.notAFontScale(given: $0, orDefault: false).error
        }
        return pct
    }
    // Checked by the host's one rule of the settings, as `shelf settings` and the web API check what they store.
    let given = try ReaderSettings(fontScale: scale, font: args.value("--font"), theme: args.value("--theme")).checked()
    let settings = RenderRequest(
        as: try args.choice("--as", ["text", "html"]) ?? "text",
        width: try args.int("--width", in: 10...1000) ?? 72,
        fontScale: given.fontScale ?? stored.fontScale, font: given.font ?? stored.font,
        theme: given.theme ?? stored.theme)
    let rendered = try book.render(at: try requestedLocator(args, book), with: settings)
    if context.json {
        Output.json(RenderedJSON(rendered))
    } else {
        Output.raw(rendered.content)
        if rendered.content.last != UInt8(ascii: "\n") { Output.line() }
    }
    return 0
}

let positionsCommand = Command(
    name: "positions", summary: "the book's positions (pages), as locators",
    usage: "shelf positions FILE [--json]",
    details: "Lists the positions of the book: stable page numbers that do not change with the reader's settings."
        + fileArgumentHelp,
    positionals: 1...1
) { args, context in
    let positions = try context.shelf.openFile(args.positionals[0]).positions()
    if context.json {
        Output.json(positions)
    } else {
        for p in positions {
            let percent = Int(((p.locations.totalProgression ?? 0) * 100).rounded())
            Output.line("\(p.locations.position.map(String.init) ?? "?")\t\(percent)%\t\(p.title ?? "")\t\(p.href)")
        }
        Output.line(Plural.count(positions.count, "position"))
    }
    return 0
}

let searchCommand = Command(
    name: "search", summary: "find text in a book",
    usage: "shelf search FILE QUERY [--limit N] [--json]",
    details:
        "Finds QUERY in the book, ignoring case, accents and quote styles (n'avais finds n’avais), and prints each hit with its position and context."
        + fileArgumentHelp,
    valueOptions: ["--limit"],
    positionals: 2...2,
    otherCommand: { words in
        words.count == 1 ? "To search your library's catalog: shelf catalog-search \(ShellWords.quoted(words[0]))" : nil
    }
) { args, context in
    let limit = try args.int("--limit", in: 1...10_000) ?? 100
    let hits = try context.shelf.openFile(args.positionals[0]).search(args.positionals[1], limit: limit)
    if context.json {
        Output.json(hits)
    } else {
        for hit in hits {
            let text = hit.text.map { "\($0.before ?? "")[\($0.highlight ?? "")]\($0.after ?? "")" } ?? ""
            let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            Output.line("\(hit.locations.position.map { "page \($0)" } ?? hit.href)\t\(hit.title ?? "")\t\(flat)")
        }
        Output.line(Plural.count(hits.count, "hit"))
    }
    return 0
}

let resourceCommand = Command(
    name: "resource", summary: "extract one resource of a book",
    usage: "shelf resource FILE HREF -o PATH",
    details: "Writes the resource at HREF (as in the manifest), decoded, to PATH (- for stdout)." + fileArgumentHelp,
    valueOptions: ["-o", "--output"],
    positionals: 2...2
) { args, context in
    guard let output = args.value("-o") ?? args.value("--output") else {
        throw CommandUsage.needsOutputPath(command: "resource").error
    }
    let book = try context.shelf.openFile(args.positionals[0])
    let href = args.positionals[1]
    try extract(book.resource(href), href: href, book: book, to: output, json: context.json)
    return 0
}

let coverCommand = Command(
    name: "cover", summary: "extract the cover image",
    usage: "shelf cover FILE -o PATH",
    details: "Writes the book's cover image (the manifest link with rel \"cover\") to PATH (- for stdout)."
        + fileArgumentHelp,
    valueOptions: ["-o", "--output"],
    positionals: 1...1
) { args, context in
    guard let output = args.value("-o") ?? args.value("--output") else {
        throw CommandUsage.needsOutputPath(command: "cover").error
    }
    let book = try context.shelf.openFile(args.positionals[0])
    let manifest = book.manifest
    guard let cover = (manifest.links + (manifest.resources ?? [])).first(where: { $0.rel?.contains("cover") == true })
    else {
        throw CommandLookup.noCover(path: book.path).error
    }
    try extract(book.resource(cover.href), href: cover.href, book: book, to: output, json: context.json)
    return 0
}

/// Writes extracted bytes to a file or stdout; with --json (and a file) says what was written.
func extract(_ data: Data, href: String, book: BookFile, to output: String, json: Bool) throws {
    if output == "-" {
        Output.raw(data)
        return
    }
    try Shelf.writeOutputFile(data, to: output)
    if json {
        Output.json(ExtractedResourceJSON(href: href, file: book, path: output, bytes: data.count))
    }
}
