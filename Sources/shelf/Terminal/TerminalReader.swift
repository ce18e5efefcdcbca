import Foundation
import Glibc
import Host

/// `shelf read BOOK` on a terminal: the book a screen at a time, turned with keys, the status line always shown, and
/// the place saved on every turn (as `shelf read --next` saves it: one transaction). Keys come from `TerminalKeys`,
/// the machinery `shelf listen` uses too. A page (one of the book's positions) taller than the screen is shown a
/// screenful at a time before the next page.
final class TerminalReader {
    static let help = [
        "Keys",
        "",
        "  space, →, ↓, PgDn   next screen or page",
        "  ←, ↑, PgUp          previous screen or page",
        "  Home, End           first page, last page",
        "  t                   table of contents (↑ ↓, Enter to go, Esc back)",
        "  /                   search from this page; n next hit, N previous hit",
        "                      (the hit you are at is underlined, the others in reverse)",
        "  b                   bookmark this page (one a page)",
        "  B                   bookmarks (↑ ↓, Enter to go, d to remove, Esc back)",
        "  + -                 wider, narrower text",
        "  ?                   this help",
        "  q                   quit (your place is saved on every turn)",
        "",
        "Any key goes back to the book."
    ]

    private let reader: BookReader
    private let book: ShelfBook
    private let theme: TerminalTheme?
    private let keys = TerminalKeys(watchResize: true)
    private var screen = TerminalScreen()
    private var session: ReadingSession
    private var page: ReadingSession.Page
    /// The first line of the page on screen.
    private var scroll = 0
    /// The text width the patron asked for (--width, + and -); the terminal's width caps it.
    private var preferredWidth: Int
    private var message: String?
    /// The search under way: every hit with its page, and the one the reader is at.
    private var search: (query: String, hits: [ReadingSession.SearchHit], at: Int)?

    init(reader: BookReader, book: ShelfBook, width: Int, theme: TerminalTheme?) throws {
        self.reader = reader
        self.book = book
        self.theme = theme
        preferredWidth = width
        screen.measure()
        session = try reader.session(book, width: min(width, screen.columns))
        let opened = try reader.read(in: session, move: .resume)
        page = opened.page
        let notes = (book.isSample ? ["a sample: the library's preview, not the whole book"] : []) + opened.notes
        message = notes.isEmpty ? nil : notes.joined(separator: " ")
    }

    /// Runs until q, the end of input or Ctrl-C; the terminal is left as it was found. Returns the page's status.
    func run() -> String {
        screen.enter()
        defer {
            screen.leave()
            keys.restore()
        }
        draw()
        while let key = keys.next() {
            if case .character("q") = key { break }
            message = nil
            do { try handle(key) } catch let error as ShelfError {
                message = error.message
            } catch {
                message = "\(error)"
            }
            draw()
        }
        return page.status
    }

    // MARK: Keys

    private func handle(_ key: Key) throws {
        switch key {
        case .character(" "), .right, .down, .pageDown: try forward()
        case .left, .up, .pageUp: try backward()
        case .home: try move(.goTo(1))
        case .end: try move(.goTo(session.pageCount))
        case .resized: try fitToTerminal()
        case .character("t"): try tableOfContents()
        case .character("/"): try startSearch()
        case .character("n"): try nextHit(by: 1)
        case .character("N"): try nextHit(by: -1)
        case .character("b"): try bookmarkPage()
        case .character("B"): try bookmarks()
        case .character("+"), .character("="): try setWidth(preferredWidthNow + 4)
        case .character("-"), .character("_"): try setWidth(preferredWidthNow - 4)
        case .character("?"), .character("h"): showHelp()
        default: break
        }
    }

    private var lines: [String] {
        let text = page.text.isEmpty ? "[This page has no text]" : page.text
        var out = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while out.count > 1, out.last?.isEmpty == true { out.removeLast() }
        return out
    }

    private func forward() throws {
        if scroll + screen.textRows < lines.count {
            scroll += screen.textRows
            return
        }
        try move(.next)
    }

    private func backward() throws {
        if scroll > 0 {
            scroll = max(0, scroll - screen.textRows)
            return
        }
        guard page.number > 1 else {
            message = "This is the first page."
            return
        }
        try move(.previous)
        // Back onto a page taller than the screen: its last screenful, where reading it left off.
        scroll = max(0, (lines.count - 1) / screen.textRows * screen.textRows)
    }

    /// Moves and saves, as `shelf read` does with a flag.
    private func move(_ move: BookReader.Move) throws {
        let result = try reader.read(in: session, move: move)
        page = result.page
        scroll = 0
        if !result.notes.isEmpty { message = result.notes.joined(separator: " ") }
    }

    // MARK: Width

    private var preferredWidthNow: Int { min(preferredWidth, screen.columns) }

    private func setWidth(_ width: Int) throws {
        let wanted = min(max(width, 20), screen.columns)
        preferredWidth = wanted
        try rewrap(to: wanted)
        message = "Text \(wanted) columns wide."
    }

    /// After SIGWINCH: the new size; the text is wrapped again when it no longer fits (or may be wider again).
    private func fitToTerminal() throws {
        screen.measure()
        try rewrap(to: min(preferredWidth, screen.columns))
    }

    private func rewrap(to width: Int) throws {
        guard width != session.width else { return }
        session = try reader.session(book, width: width)
        page = try session.page(page.number)
        scroll = 0
    }

    // MARK: Search

    /// From where the patron is: the first hit on a page after this one (else, said, the book's first).
    private func startSearch() throws {
        guard let query = prompt("Search: "), !query.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        let hits = try session.searchHits(query)
        let after = hits.firstIndex { $0.page > page.number }
        try goToHit(after ?? 0, of: (query, hits, 0))
        if after == nil { message = ReaderNotice.searchWrapped(query: query).words(for: .terminal).line }
    }

    private func nextHit(by step: Int) throws {
        guard let current = search else {
            message = "Search first with /."
            return
        }
        let at = current.at + step
        guard current.hits.indices.contains(at) else {
            message = step > 0 ? "No more hits for “\(current.query)”." : "This is the first hit."
            return
        }
        try goToHit(at, of: current)
    }

    private func goToHit(_ at: Int, of found: (query: String, hits: [ReadingSession.SearchHit], at: Int)) throws {
        try move(.goTo(found.hits[at].page))
        search = (found.query, found.hits, at)
        // A page taller than the screen: the screenful that holds the hit.
        if let place = currentHitPlace, place.row >= screen.textRows {
            scroll = place.row / screen.textRows * screen.textRows
        }
    }

    /// Where the hit the reader is at is on the page: the line and which occurrence on it, counting the hits before
    /// it on the same page (the book's order is the page's).
    private var currentHitPlace: (row: Int, nth: Int)? {
        guard let search else { return nil }
        let hit = search.hits[search.at]
        var before = search.hits[..<search.at].reversed().prefix { $0.page == hit.page }.count
        for (row, line) in lines.enumerated() {
            let count = TerminalScreen.occurrences(of: search.query, in: line)
            if before < count { return (row, before) }
            before -= count
        }
        return nil
    }

    /// A line typed on the status row; nil when Escape cancels it.
    private func prompt(_ label: String) -> String? {
        var typed = ""
        while true {
            screen.draw(visibleLines, status: label + typed + "▏", theme: theme)
            guard let key = keys.next() else { return nil }
            switch key {
            case .enter: return typed
            case .escape: return nil
            case .backspace: if !typed.isEmpty { typed.removeLast() }
            case .character(let c): typed.append(c)
            // In a prompt or a list, a book that cannot be laid out again keeps its layout; the page loop lays it
            // out at the next resize, where the error ends the reader with its message.
            case .resized: try? fitToTerminal()
            default: break
            }
        }
    }

    // MARK: Lists

    private func tableOfContents() throws {
        let toc = session.tableOfContents
        guard !toc.isEmpty else {
            message = "This book has no table of contents."
            return
        }
        let current = toc.lastIndex { ($0.page ?? Int.max) <= page.number } ?? 0
        // The current entry is said in words, as `listen` says "(playing)" or "(you are here, paused)": reverse video alone reaches no screen reader.
        let items = toc.enumerated().map { index, entry in
            String(repeating: "  ", count: entry.depth) + "\(entry.number). " + DisplayText.oneLine(entry.title)
                + (entry.page.map { " (page \($0))" } ?? "") + (index == current ? ", you are here" : "")
        }
        guard let chosen = choose(items, title: "Contents", initial: current) else { return }
        try move(.tableOfContents(toc[chosen].number))
    }

    /// One bookmark a page: a second `b` says the page has one.
    private func bookmarkPage() throws {
        let here = try reader.bookmarks(book).first { mark in
            if case .page(let p) = mark.resolution { return p == page.number }
            return false
        }
        let notice: ReaderNotice
        if let here {
            notice = .bookmarkAlreadyThere(id: here.bookmark.id, page: page.number)
        } else {
            let (mark, _) = try reader.addBookmark(book, page: page.number)
            notice = .bookmarkAdded(id: mark.id, page: page.number)
        }
        message = notice.words(for: .terminal).line
    }

    private func bookmarks() throws {
        let marks = try reader.bookmarks(book)
        guard !marks.isEmpty else {
            message = "No bookmarks yet: b bookmarks this page."
            return
        }
        let items = marks.map { mark -> String in
            let quote = mark.bookmark.locator.text?.highlight.map { " “" + DisplayText.oneLine($0) + "…”" } ?? ""
            switch mark.resolution {
            case .page(let p): return "\(mark.bookmark.id). page \(p)" + quote
            case .lost(let why): return "\(mark.bookmark.id). cannot be found: \(why)"
            }
        }
        var removing: Int?
        guard
            let chosen = choose(
                items, title: "Bookmarks", initial: 0, removal: { removing = $0 }, removeKey: "d remove")
        else {
            if let removing {
                let id = marks[removing].bookmark.id
                try reader.removeBookmark(id: id)
                message = ReaderNotice.bookmarkRemoved(id: id).words(for: .terminal).line
            }
            return
        }
        try move(.bookmark(marks[chosen].bookmark.id))
    }

    /// A list to pick from: ↑ ↓ PgUp PgDn to choose, Enter to take it, Escape or q to go back; with `removal`, d hands
    /// it the chosen row and leaves the list (nil).
    private func choose(
        _ items: [String], title: String, initial: Int, removal: ((Int) -> Void)? = nil, removeKey: String? = nil
    ) -> Int? {
        var selected = initial
        while true {
            let visible = max(1, screen.textRows - 2)
            let top = min(max(0, selected - visible / 2), max(0, items.count - visible))
            // The chosen row is marked by a sign as well as reverse video, for a screen reader and a screen without it.
            let rows = (top..<min(items.count, top + visible)).map { ($0 == selected ? "▸ " : "  ") + items[$0] }
            let hints = ["↑ ↓ choose", "Enter go"] + (removeKey.map { [$0] } ?? []) + ["Esc back"]
            let shown = [title + " — " + hints.joined(separator: ", "), ""] + rows
            screen.draw(shown, status: page.status, highlight: selected - top + 2)
            guard let key = keys.next() else { return nil }
            switch key {
            case .up: selected = max(0, selected - 1)
            case .down: selected = min(items.count - 1, selected + 1)
            case .pageUp: selected = max(0, selected - visible)
            case .pageDown, .character(" "): selected = min(items.count - 1, selected + visible)
            case .home: selected = 0
            case .end: selected = items.count - 1
            case .enter: return selected
            case .character("d") where removal != nil:
                removal?(selected)
                return nil
            case .escape, .character("q"): return nil
            // In a prompt or a list, a book that cannot be laid out again keeps its layout; the page loop lays it
            // out at the next resize, where the error ends the reader with its message.
            case .resized: try? fitToTerminal()
            default: break
            }
        }
    }

    private func showHelp() {
        screen.draw(Self.help, status: page.status)
        while let key = keys.next() {
            // As in a prompt: the help keeps the layout; the page loop says an error.
            if key == .resized { try? fitToTerminal(); screen.draw(Self.help, status: page.status); continue }
            return
        }
    }

    // MARK: Drawing

    private var visibleLines: [String] { Array(lines.dropFirst(scroll).prefix(screen.textRows)) }

    private var status: String {
        var parts = [DisplayText.oneLine(page.status)]
        if book.isSample { parts.insert("Sample", at: 0) }
        if scroll + screen.textRows < lines.count { parts.append("more ↓") }
        // What just happened (a note, a bookmark added) comes before the search, which the next turn shows again.
        if let message {
            parts.append(DisplayText.oneLine(message))
        } else if let search {
            parts.append("“\(DisplayText.oneLine(search.query))” hit \(search.at + 1) of \(search.hits.count)")
        }
        var line = parts.joined(separator: " · ")
        // Too wide: the chapter's title (before the page's number in the page's status) gives way first, so that the
        // page number and what just happened stay on the line.
        let over = TerminalWidth.columns(line) - screen.columns
        let at = book.isSample ? 1 : 0
        if over > 0, let cut = parts[at].range(of: " · ") {
            let title = String(parts[at][..<cut.lowerBound])
            let room = max(8, TerminalWidth.columns(title) - over)
            parts[at] = TerminalWidth.fit(title, room) + parts[at][cut.lowerBound...]
            line = parts.joined(separator: " · ")
        }
        let help = "? help"
        let used = TerminalWidth.columns(line)
        if used + help.count + 3 <= screen.columns {
            line += String(repeating: " ", count: screen.columns - used - help.count) + help
        }
        return line
    }

    private func draw() {
        let current = currentHitPlace.map { (row: $0.row - scroll, nth: $0.nth) }
        screen.draw(visibleLines, status: status, theme: theme, marking: search?.query, current: current)
    }
}
