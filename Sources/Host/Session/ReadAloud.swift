internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
internal import ShelfPlayback
internal import ShelfPlugins
internal import TextFolding
internal import PluginAPI
import Foundation
import Glibc
import Synchronization

/// A book with text (an EPUB) listened to: its text spoken by a speech plugin ahead of playback (SpeechRecorder)
/// into tracks of an audiobook made for the session, played by the same engine and controls as any audiobook. The
/// place is the reader's: listening starts at the sentence where reading (or the last listening) stopped, and as it
/// goes it saves the sentence being heard as the book's reading place, so `shelf read` opens on it.
///
/// The session's audiobook lives in the cache (`speech/session-PID-N/`: manifest.json, NNN.wav, NNN.marks.json) while
/// it plays; its tracks are named as remote parts (`https://speech.invalid/...`) so that they play, and are served
/// to a browser, as a remote audiobook's downloaded parts are (`ListeningSession.downloadedFile(of:)`).
/// Unchecked Sendable: only constants; the recorder and the book are safe from any thread (their own locks).
final class ReadAloud: RecordedListening, @unchecked Sendable {
    let recorder: SpeechRecorder
    let book: AudioBook
    let folder: URL
    /// The book on the shelf whose place is kept; nil for a file not on the shelf (its place is not kept).
    let shelfID: String?
    let database: LibraryDatabase
    /// Where listening starts, in words ("from the sentence where you stopped", "from chapter 3, The Storm").
    let startWords: String

    static let trackBase = "https://speech.invalid/"

    init(
        recorder: SpeechRecorder, book: AudioBook, folder: URL, shelfID: String?, database: LibraryDatabase,
        startWords: String
    ) {
        (self.recorder, self.book, self.folder, self.shelfID, self.database, self.startWords) = (
            recorder, book, folder, shelfID, database, startWords
        )
    }

    deinit {
        tracks.stop()
        // The session's own folder in the cache: what is left of it is only cache.
        try? FileManager.default.removeItem(at: folder)
    }

    var tracks: ChapterTracks<SpeechRecorder.Mark> { recorder.tracks }
    var chapterCount: Int { recorder.chapters.count }
    var startsAtBookStart: Bool { recorder.start == SpeechRecorder.Start(chapter: 0) }
    static let making: (book: String, made: String, readAloud: Bool) = ("the book", "spoken", true)

    // MARK: Opening

    /// A read-aloud session for `path` when it is a book with text and no audio of its own; nil for an audiobook
    /// (the caller plays it as one). `chapter` (0-based, as `shelf toc` numbers them) starts there instead of at
    /// the reader's place.
    /// `fromBookStart`: speaking starts at the book's first item whatever the reader's place, for playback to start
    /// at a time in the book spoken (`waitForTracks(to:engine:)`).
    static func open(
        shelf: Shelf, path: String, shelfBook: ShelfBook?, database: LibraryDatabase, chapter: Int?,
        fromBookStart: Bool = false
    ) throws -> ReadAloud? {
        // Asked of the plugin that would open it, before opening: an audiobook is played as one.
        guard FileManager.default.fileExists(atPath: path),
            // not a book shelf opens: the audiobook path says why
            let choice = try? shelf.router.choose(for: try PublicationInput(path: path)),
            !choice.plugin.capabilities.contains(SHELF_EXT_AUDIO), choice.plugin.capabilities.contains(SHELF_EXT_RENDER)
        else { return nil }
        warmUpPlayers(shelf)
        let publication = try shelf.open(path)
        let items = publication.manifest.readingOrder.filter { ($0.type ?? "").contains("html") }
        guard !items.isEmpty else { return nil }
        let synthesis = try speechPlugin(shelf)
        let toc = flatten(publication.manifest.toc ?? [])
        // Each item's first entry of the table of contents names it (a dictionary: a book has hundreds of each).
        var itemIndex: [String: Int] = [:]
        for (i, link) in items.enumerated() where itemIndex[itemPath(link.href)] == nil {
            itemIndex[itemPath(link.href)] = i
        }
        let tocItems = toc.map { itemIndex[itemPath($0.href)] }
        var titles: [Int: String] = [:]
        for (entry, item) in zip(toc, tocItems) {
            if let item, titles[item] == nil, let title = entry.title { titles[item] = title }
        }
        let chapters = items.enumerated().map { i, link in
            SpeechRecorder.Chapter(href: link.href, type: link.type, title: titles[i] ?? link.title)
        }
        let language = bookLanguage(publication.manifest)
        let load: (Int) throws -> SpeechRecorder.ChapterText = { index in
            let data = try publication.resource(chapters[index].href)
            return SpeechRecorder.ChapterText(passages: SpeechText.passages(of: data, href: chapters[index].href))
        }
        // Where to start, and the text of that chapter (read once here, then kept by the recorder).
        var start = SpeechRecorder.Start(chapter: 0)
        var words = "from the start"
        var startText: SpeechRecorder.ChapterText?
        if fromBookStart {
            // Times count from the book's first item: it is spoken from there.
        } else if let chapter {
            guard toc.indices.contains(chapter), let item = tocItems[chapter] else {
                throw ShelfError(
                    .usage, "there is no chapter \(chapter + 1); the book has \(toc.count)",
                    hint: "`shelf toc BOOK` lists the chapters.")
            }
            start = SpeechRecorder.Start(chapter: item)
            words = "from chapter \(chapter + 1), \(toc[chapter].title ?? toc[chapter].href)"
        } else if let id = shelfBook?.book.id, let saved = try database.readingLocator(bookID: id),
            let item = items.firstIndex(where: { itemPath($0.href) == itemPath(saved.href) })
        {
            let text = try load(item)
            startText = text
            let byte = place(of: saved, in: text)
            let (passage, offset) = text.passage(at: byte)
            start = SpeechRecorder.Start(
                chapter: item, passage: passage,
                offset: sentenceStart(in: text.passages[safe: passage]?.text ?? "", before: offset))
            words = "from the sentence where you stopped"
        } else if let opening = try? publication.render(at: nil, settings: "{\"as\":\"text\"}").locator,
            // where a reader opens it
            let item = items.firstIndex(where: { itemPath($0.href) == itemPath(opening.href) })
        {
            start = SpeechRecorder.Start(chapter: item)
        }
        let folder = try sessionFolder(shelf)
        let recorder = SpeechRecorder(
            synthesis: synthesis, chapters: chapters, start: start, folder: folder, bookLanguage: language
        ) { index in
            if index == start.chapter, let startText { return startText }
            return try load(index)
        }
        recorder.begin()
        do {
            let manifest = folder.appendingPathComponent("manifest.json")
            try audiobookManifest(
                publication, chapters: chapters, toc: zip(toc, tocItems).map { ($0.title, $1) }, start: start.chapter,
                language: language
            ).write(to: manifest)
            let book = try AudioBook(path: manifest.path, router: shelf.router)
            try recorder.waitForFirstSound()
            return ReadAloud(
                recorder: recorder, book: book, folder: folder, shelfID: shelfBook?.book.id, database: database,
                startWords: words)
        } catch {
            recorder.tracks.stop()
            try? FileManager.default.removeItem(at: folder)  // only the session's cache
            throw error
        }
    }

    /// The first speech plugin that loads; without one, why not and how to install it.
    static func speechPlugin(_ shelf: Shelf) throws -> SpeechSynthesis {
        let registry = shelf.registry
        for plugin in registry.plugins where plugin.capabilities.contains(SHELF_EXT_SPEECH) {
            if let synthesis = SpeechSynthesis(plugin: plugin) { return synthesis }
        }
        let refused = registry.refused.filter { ($0.path as NSString).lastPathComponent.contains("speech") }
        let words = SpeechUnavailable(refusals: refused.map(\.reason)).words(for: .terminal)
        throw ShelfError(.unavailable, words.sentence, hint: words.hint)
    }

    /// Loads the plugins that play an audiobook manifest on a thread of their own: their libraries (FFmpeg's, and
    /// the 270 it needs: the longest part of the wait for the first sound) load while the book opens and speaking
    /// starts. Opening the session's manifest then finds them loaded, or waits on the plugin's own lock.
    static func warmUpPlayers(_ shelf: Shelf) {
        let players = shelf.registry.plugins.filter {
            $0.capabilities.contains(SHELF_EXT_AUDIO) && $0.descriptor.mediaTypes.contains("application/audiobook+json")
        }
        guard players.contains(where: { !$0.isLoaded }) else { return }
        Thread.detachNewThread {
            for player in players { _ = player.extensionTable(SHELF_EXT_AUDIO, minimumSize: 0) }
        }
    }

    // MARK: The place, shared with reading

    /// The byte of a chapter's text a reading place points at: its quote's first words found in the text, else its
    /// progression.
    static func place(of locator: Locator, in text: SpeechRecorder.ChapterText) -> Int {
        if let highlight = locator.text?.highlight {
            let needle = Array(FoldedText(highlight, keep: .lettersAndDigits).scalars.prefix(24))
            let stream = FoldedText(text.text, keep: .lettersAndDigits, origins: .utf8Offset)
            if needle.count >= 3, let hit = stream.occurrences(of: needle, overlapping: false).first {
                return stream.origins[hit.lowerBound]
            }
        }
        let progression = min(max(locator.locations.progression ?? 0, 0), 1)
        return Int(progression * Double(text.text.utf8.count))
    }

    /// Where the sentence holding byte `offset` of a passage begins: after the last . ! ? … followed by a space.
    static func sentenceStart(in passage: String, before offset: Int) -> Int {
        let bytes = Array(passage.utf8)
        var i = min(offset, bytes.count)
        while i > 1 {
            if bytes[i - 1] == 0x20,
                [0x2E, 0x21, 0x3F, 0x22, 0x27, 0x29].contains(bytes[i - 2])
                    || (i >= 4 && bytes[i - 4...i - 2] == [0xE2, 0x80, 0xA6])
            {
                return i
            }
            i -= 1
        }
        return 0
    }

    /// The sentence being heard at `global` on the session's timeline, as a reading place: the chapter, the
    /// sentence's text as the quote, and its progression in the chapter.
    func locator(at global: Int64, timeline: Timeline) -> Locator? {
        let (track, offset) = timeline.locate(global)
        return locator(track: track, frame: offset)
    }

    /// The sentence being heard at frame `offset` of a track, as a reading place.
    func locator(track: Int, frame offset: Int64) -> Locator? {
        guard recorder.chapters.indices.contains(track), let text = try? recorder.text(of: track) else { return nil }
        let sentences = tracks.marks(of: track).filter { $0.kind == "sentence" }
        guard let sentence = sentences.last(where: { $0.frame <= offset }) ?? sentences.first else { return nil }
        let chapter = recorder.chapters[track]
        let length = max(1, text.text.utf8.count)
        return Locator(
            href: chapter.href, type: chapter.type ?? "application/xhtml+xml", title: chapter.title,
            locations: .init(progression: min(1, Double(sentence.offset) / Double(length))),
            text: .init(
                before: text.slice(max(0, sentence.offset - 40), min(40, sentence.offset)),
                highlight: TextQuote.highlight(of: text.slice(sentence.offset, sentence.length))))
    }

    /// Every word and sentence spoken so far, at its time on the session's timeline.
    func spokenMarks(timeline: Timeline) -> [SpokenMark] {
        var out: [SpokenMark] = []
        for track in recorder.start.chapter..<recorder.chapters.count {
            let marks = tracks.marks(of: track)
            guard !marks.isEmpty, let text = try? recorder.text(of: track) else { continue }
            let href = recorder.chapters[track].href
            for m in marks {
                out.append(
                    SpokenMark(
                        kind: m.kind, href: href,
                        time: timeline.seconds(timeline.global(track: track, offset: m.frame)),
                        offset: m.offset, length: m.length, text: text.slice(m.offset, m.length)))
            }
        }
        return out
    }

    /// The sentence being heard, for a front end to show.
    func sentence(at global: Int64, timeline: Timeline) -> String? {
        locator(at: global, timeline: timeline)?.text?.highlight
    }

    // MARK: Helpers

    static func itemPath(_ href: String) -> String { String(href[..<(href.firstIndex(of: "#") ?? href.endIndex)]) }

    static func flatten(_ links: [Link]) -> [Link] { links.flatMap { [$0] + flatten($0.children ?? []) } }

    static func bookLanguage(_ manifest: Manifest) -> String? {
        switch manifest.metadata["language"] {
        case .string(let s)?: return s
        case .array(let a)?: return a.first?.string
        default: return nil
        }
    }

    /// Sessions opened by this process so far: each has a folder of its own (a server speaks several books, and a
    /// book again from another place, while an earlier session may still be ending).
    private static let opened = Mutex(0)

    /// `speech/session-PID-N` in the cache, new; folders of sessions whose process is gone are removed.
    static func sessionFolder(_ shelf: Shelf) throws -> URL {
        let speech = try shelf.cacheFolder("speech")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: speech.path)) ?? []
        where name.hasPrefix("session-") {
            let owner = name.dropFirst("session-".count).split(separator: "-").first.flatMap { Int32($0) }
            if let pid = owner, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: speech.appendingPathComponent(name))  // a dead session's cache
            }
        }
        let number = opened.withLock { count in
            count += 1
            return count
        }
        let folder = speech.appendingPathComponent("session-\(getpid())-\(number)", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)  // left by an earlier process of the same id: cache
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ShelfError(
                .ioError, "the folder for the spoken book cannot be made (\(error.localizedDescription))",
                subject: folder.path)
        }
        return folder
    }

    /// The session's audiobook: a track for each reading-order item with text, in reading order (those before where
    /// listening starts last no time: they are not spoken in this session), its table of contents the book's.
    /// Written by the Readium shapes' own writer: JSONSerialization took 20 ms of the wait for the first sound over
    /// Mémoires' 575 tracks and 618 entries.
    static func audiobookManifest(
        _ publication: Publication, chapters: [SpeechRecorder.Chapter], toc: [(title: String?, item: Int?)],
        start: Int, language: String?
    ) throws -> Data {
        var metadata: [String: JSONValue] = [
            "@type": .string("http://schema.org/Audiobook"), "title": .string(publication.manifest.title ?? "Untitled"),
            "conformsTo": .string("https://readium.org/webpub-manifest/profiles/audiobook")
        ]
        if let language { metadata["language"] = .string(language) }
        let authors = publication.manifest.authors
        if !authors.isEmpty { metadata["author"] = .array(authors.map { .string($0) }) }
        let order = chapters.enumerated().map { i, chapter in
            Link(href: trackHref(i), type: "audio/wav", title: chapter.title, duration: i < start ? 0 : nil)
        }
        // The book's own entries, each on its item's track, so that chapter N is `shelf toc`'s chapter N.
        let entries = toc.compactMap { entry in
            entry.item.map { Link(href: trackHref($0), title: entry.title ?? chapters[$0].title ?? "Chapter") }
        }
        let manifest = Manifest(metadata: metadata, readingOrder: order, toc: entries)
        return ReadiumJSON.wire(manifest)
    }

    static func trackHref(_ index: Int) -> String { trackBase + String(format: "%03d.wav", index + 1) }
}

/// Where the place is kept while a book is read aloud: the sentence being heard, as the book's reading place.
/// Unchecked Sendable: one constant; the engine saves from its playing thread, the database takes its own lock.
final class ReadAloudPlace: PlaybackPositionSaving, @unchecked Sendable {
    unowned let readAloud: ReadAloud
    init(_ readAloud: ReadAloud) { self.readAloud = readAloud }

    func save(book: AudioBook, timeline: Timeline, at global: Int64) throws {
        guard let id = readAloud.shelfID, let locator = readAloud.locator(at: global, timeline: timeline) else {
            return
        }
        // No listening progress: the seconds of a session's synthesis are not the book's length.
        try readAloud.database.saveListeningPlace(
            bookID: id, locator: locator.jsonString(), seconds: timeline.seconds(global), duration: nil)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
