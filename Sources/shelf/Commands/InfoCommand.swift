import Foundation
import Host

let infoCommand = Command(
    name: "info", summary: "title, authors, format and chapters of a book",
    usage: "shelf info FILE [--json]",
    details: "Opens FILE through the plugin that handles it and describes it." + fileArgumentHelp,
    positionals: 1...1
) { args, context in
    let book = try context.shelf.openFile(args.positionals[0])
    let info = BookInfo(book)
    if context.json {
        Output.json(info)
    } else {
        Output.line(info.title ?? "(untitled)")
        if !info.authors.isEmpty { Output.line("by \(info.authors.joined(separator: ", "))") }
        Output.line("Format:   \(info.format) (\(info.mediaType ?? "unknown type"))")
        if !info.language.isEmpty { Output.line("Language: \(info.language.joined(separator: ", "))") }
        Output.line("Chapters: \(info.chapters)")
        if let length = info.duration { Output.line("Length:   \(PlaybackTime.clock(length))") }
        if let readers = info.narrators { Output.line("Read by:  \(readers.joined(separator: ", "))") }
        Output.line("Opened by \(info.pluginName) (\(info.plugin))")
        for p in info.damagedTracks { Output.error("\(info.path): \(p.sentence)") }
        if !info.damagedTracks.isEmpty {
            Output.standardError("  " + CommandNotice.damagedTracks.words(for: .terminal).line + "\n")
        }
    }
    // A book with tracks missing (66) or damaged (65) is not whole: scripts should know.
    if info.damagedTracks.contains(where: \.missing) { return ShelfError.Kind.noInput.rawValue }
    return info.damagedTracks.isEmpty ? 0 : ShelfError.Kind.badData.rawValue
}

let manifestCommand = Command(
    name: "manifest", summary: "print the Readium Web Publication Manifest",
    usage: "shelf manifest FILE",
    details: "Prints the book's Readium Web Publication Manifest as JSON on stdout, ready for jq." + fileArgumentHelp,
    positionals: 1...1
) { args, context in
    let book = try context.shelf.openFile(args.positionals[0])
    // Re-encoded through the model so the output is always pretty, sorted and valid.
    Output.json(book.manifest)
    return 0
}

let tocCommand = Command(
    name: "toc", summary: "the table of contents",
    usage: "shelf toc FILE [--json]",
    details: "Prints the table of contents with its nesting; --json prints the manifest's toc links."
        + fileArgumentHelp,
    positionals: 1...1
) { args, context in
    let book = try context.shelf.openFile(args.positionals[0])
    let manifest = book.manifest
    let isAudio = book.format == .audiobook
    // An audiobook's entries carry their length as `duration` (a book without a TOC lists its tracks, which do).
    let toc = book.tableOfContents
    if context.json {
        Output.json(toc)
    } else {
        // For audio, each entry shows where it starts on the book's timeline (track durations + #t=) and how long
        // it lasts.
        let spans = book.tableOfContentsSpans
        var trackStarts: [String: Double] = [:]
        var elapsed = 0.0
        for item in manifest.readingOrder where manifest.toc == nil {
            trackStarts[item.href] = elapsed
            elapsed += item.duration ?? 0
        }
        var index = 0
        func show(_ links: [Link], depth: Int) {
            for link in links {
                var line = String(repeating: "  ", count: depth) + (link.title ?? link.href)
                if spans.indices.contains(index), let span = spans[index] {
                    line += ", at \(PlaybackTime.clock(span.start)), \(PlaybackTime.clock(span.duration)) long"
                } else if isAudio, let start = trackStarts[link.href], let length = link.duration {
                    line += ", at \(PlaybackTime.clock(start)), \(PlaybackTime.clock(length)) long"
                }
                index += 1
                Output.line(line)
                if depth < 16 { show(link.children ?? [], depth: depth + 1) }
            }
        }
        show(toc, depth: 0)
    }
    return 0
}
