internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
internal import ShelfPlayback
internal import ShelfPlugins
internal import PluginAPI
import Foundation
import Synchronization

/// A narrated book (an EPUB 3 with media overlays) listened to: its narration, not synthesised speech. The clips of
/// the manifest (`readingOrder[i].alternate[].properties.clips`, MediaOverlayClips in the EPUB plugin) are cut from
/// the book's audio, a narrated chapter at a time, into the tracks of an audiobook made for the session
/// (NarrationRecorder), played by the same engine and controls as any audiobook and as a book read aloud (ReadAloud):
/// speed with the pitch kept, skips, the sleep timer, chapters from the book's table of contents, never starting by
/// itself. The place is the reader's: listening starts at the phrase where reading (or the last listening) stopped,
/// and as it goes it saves the phrase heard as the book's reading place (its element, as a locator), so that
/// `shelf read` opens on it.
///
/// Skippable structures (page numbers, notes, sidebars: `skippableTypes`) play unless the patron asks to skip them
/// (`ListeningOptions.skipSkippable`), as Media Overlays 3.3 suggests.
///
/// Unchecked Sendable: constants, and the phrases read so far under their own lock; the recorder and the book are safe
/// from any thread.
final class Narration: RecordedListening, @unchecked Sendable {
    let recorder: NarrationRecorder
    let book: AudioBook
    let folder: URL
    let publication: Publication
    let shelfID: String?
    let database: LibraryDatabase
    /// Where listening starts, in words ("from the phrase where you stopped", "from chapter 3, The Storm").
    let startWords: String
    /// The parts of the reading order after where listening starts that have no narration of their own, by title:
    /// the narration passes over them (a partly narrated book), and says so.
    let unnarrated: [String]
    /// The words of each chapter's phrases, by element id, read when first needed.
    private let phrases = Mutex<[Int: [String: String]]>([:])

    static let trackBase = "https://narration.invalid/"

    /// The Media Overlays 3.3 skippable structures (§ Skippability, with the vocabulary's names for them): what a
    /// patron may choose not to hear. The browser's reader skips the same (web/js/reader/narration.js).
    static let skippableTypes: Set<String> = [
        "pagebreak", "note", "footnote", "endnote", "rearnote", "annotation", "sidebar", "marginalia", "practice",
        "help"
    ]

    init(
        recorder: NarrationRecorder, book: AudioBook, folder: URL, publication: Publication, shelfID: String?,
        database: LibraryDatabase, startWords: String, unnarrated: [String]
    ) {
        (self.recorder, self.book, self.folder, self.publication, self.shelfID, self.database, self.startWords) = (
            recorder, book, folder, publication, shelfID, database, startWords
        )
        self.unnarrated = unnarrated
    }

    deinit {
        tracks.stop()
        // The session's own folder in the cache: what is left of it is only cache.
        try? FileManager.default.removeItem(at: folder)
    }

    var tracks: ChapterTracks<NarrationRecorder.Mark> { recorder.tracks }
    var chapterCount: Int { recorder.chapters.count }
    var startsAtBookStart: Bool { recorder.start == NarrationRecorder.Start(chapter: 0) }
    static let making: (book: String, made: String, readAloud: Bool) = ("the narration", "cut", false)

    // MARK: The clips of the manifest

    /// A reading-order item's clips, as the EPUB plugin gives them; empty when it has none.
    static func clips(of link: Link) -> [NarrationRecorder.Clip] {
        let alternates = link.extra["alternate"]?.array ?? []
        for alternate in alternates {
            guard let clips = alternate["properties"]?["clips"]?.array, !clips.isEmpty else { continue }
            return clips.compactMap { clip in
                guard let text = clip["text"]?.string else { return nil }
                return NarrationRecorder.Clip(
                    text: text, audio: clip["audio"]?.string, begin: clip["clipBegin"]?.number ?? 0,
                    end: clip["clipEnd"]?.number, types: clip["types"]?.array?.compactMap(\.string) ?? [],
                    structure: clip["structure"]?.string)
            }
        }
        return []
    }

    static func isSkippable(_ clip: NarrationRecorder.Clip) -> Bool {
        clip.types.contains(where: skippableTypes.contains)
    }

    // MARK: Opening

    /// A narration session for `path` when it is a book with text whose reading order has media overlays; nil for
    /// any other book (an audiobook plays as one, a book without narration is read aloud). `chapter` (0-based, as
    /// `shelf toc` numbers them) starts there instead of at the reader's place; `fromBookStart` starts at the book's
    /// first clip, for a time on the narration's timeline (`waitForTracks`).
    static func open(
        shelf: Shelf, path: String, shelfBook: ShelfBook?, database: LibraryDatabase, chapter: Int?, skipping: Bool,
        fromBookStart: Bool = false
    ) throws -> Narration? {
        guard FileManager.default.fileExists(atPath: path),
            // not a book shelf opens: the audiobook path says why
            let choice = try? shelf.router.choose(for: try PublicationInput(path: path)),
            !choice.plugin.capabilities.contains(SHELF_EXT_AUDIO), choice.plugin.capabilities.contains(SHELF_EXT_RENDER)
        else { return nil }
        let publication = try shelf.open(path)
        let order = publication.manifest.readingOrder
        // The narrated items, with their place in the reading order.
        let narrated: [(item: Int, link: Link, clips: [NarrationRecorder.Clip])] = order.enumerated().compactMap {
            i, link in
            let clips = clips(of: link)
            return clips.isEmpty ? nil : (i, link, clips)
        }
        guard !narrated.isEmpty else { return nil }
        let toc = ReadAloud.flatten(publication.manifest.toc ?? [])
        // A reading-order item → the narrated chapter that plays it, or the first after it.
        func narratedChapter(forItem item: Int) -> Int? { narrated.firstIndex { $0.item >= item } }
        func item(of href: String) -> Int? {
            order.firstIndex { ReadAloud.itemPath($0.href) == ReadAloud.itemPath(href) }
        }
        let chapters = narrated.map { n in
            NarrationRecorder.Chapter(href: n.link.href, type: n.link.type, title: n.link.title, clips: n.clips)
        }
        // Each entry of the table of contents starts at the narration of its item, or of the first narrated item
        // after it (so that chapter N is `shelf toc`'s chapter N); an entry inside a narrated item (its `#fragment`)
        // at the first phrase at or after its element. Only an entry of its own item names a chapter.
        var orders: [Int: PhraseOrder] = [:]
        let entryStarts = toc.map { entry -> NarrationRecorder.Start? in
            guard let entryItem = item(of: entry.href), let c = narratedChapter(forItem: entryItem) else { return nil }
            guard narrated[c].item == entryItem, let fragment = Self.fragment(of: entry.href) else {
                return NarrationRecorder.Start(chapter: c)
            }
            if orders[c] == nil {
                let xhtml = (try? publication.resource(ReadAloud.itemPath(chapters[c].href))) ?? Data()
                orders[c] = PhraseOrder(xhtml: xhtml, href: chapters[c].href)
            }
            return Self.start(at: fragment, in: c, chapters, order: orders[c])
        }
        var titles: [Int: String] = [:]
        for (entry, start) in zip(toc, entryStarts) {
            guard let c = start?.chapter, titles[c] == nil, let title = entry.title,
                item(of: entry.href) == narrated[c].item
            else { continue }
            titles[c] = title
        }
        let titled = chapters.enumerated().map { c, chapter in
            NarrationRecorder.Chapter(
                href: chapter.href, type: chapter.type, title: titles[c] ?? chapter.title, clips: chapter.clips)
        }
        // Where to start.
        var start = NarrationRecorder.Start(chapter: 0)
        var words = "from the start of the narration"
        if fromBookStart {
            // A time counts from the narration's start: nothing else to choose.
        } else if let chapter {
            guard toc.indices.contains(chapter), let entryStart = entryStarts[chapter] else {
                throw ShelfError(
                    .usage,
                    toc.indices.contains(chapter)
                        ? "chapter \(chapter + 1) has no narration, nor has any after it"
                        : "there is no chapter \(chapter + 1); the book has \(toc.count)",
                    hint: "`shelf toc BOOK` lists the chapters.")
            }
            start = entryStart
            words = "from chapter \(chapter + 1), \(toc[chapter].title ?? toc[chapter].href)"
        } else if let id = shelfBook?.book.id, let saved = try database.readingLocator(bookID: id),
            let savedItem = item(of: saved.href), let c = narratedChapter(forItem: savedItem)
        {
            let clip = narrated[c].item == savedItem ? clipIndex(for: saved, in: titled[c], publication) : 0
            start = NarrationRecorder.Start(chapter: c, clip: clip)
            words = "from the phrase where you stopped"
        } else if let opening = try? publication.render(at: nil, settings: "{\"as\":\"text\"}").locator,
            let openingItem = item(of: opening.href), let c = narratedChapter(forItem: openingItem)
        {
            start = NarrationRecorder.Start(chapter: c)
        }
        // The parts after the start with no narration: passed over, and said (by the contents' title, else their own).
        let narratedItems = Set(narrated.map(\.item))
        var entryTitles: [Int: String] = [:]
        for entry in toc {
            if let i = item(of: entry.href), let title = entry.title, entryTitles[i] == nil { entryTitles[i] = title }
        }
        let unnarrated = order.indices.filter { $0 > narrated[start.chapter].item && !narratedItems.contains($0) }
            .map { i in
                entryTitles[i] ?? order[i].title ?? (ReadAloud.itemPath(order[i].href) as NSString).lastPathComponent
            }
        let folder = try ReadAloud.sessionFolder(shelf)
        let sources = folder.appendingPathComponent("audio", isDirectory: true)
        let recorder = NarrationRecorder(
            chapters: titled, start: start, folder: folder,
            skip: { skipping && isSkippable($0) }
        ) { href in
            // The book's audio file, copied into the session's folder to be decoded as an audiobook of one track.
            let data = try publication.resource(href)
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            // Opened once a file (NarrationRecorder keeps it): a name of its own each time is enough.
            let ext = (ReadAloud.itemPath(href) as NSString).pathExtension
            let file = sources.appendingPathComponent(UUID().uuidString + (ext.isEmpty ? "" : ".\(ext)"))
            try data.write(to: file)
            return try AudioBook(path: file.path, router: shelf.router)
        }
        recorder.begin()
        do {
            let manifest = folder.appendingPathComponent("manifest.json")
            try audiobookManifest(
                publication, chapters: titled, toc: zip(toc, entryStarts).map { ($0.title, $1) }, start: start,
                skipping: skipping
            ).write(to: manifest)
            let book = try AudioBook(path: manifest.path, router: shelf.router)
            try recorder.waitForFirstSound()
            return Narration(
                recorder: recorder, book: book, folder: folder, publication: publication, shelfID: shelfBook?.book.id,
                database: database, startWords: words, unnarrated: unnarrated)
        } catch {
            recorder.tracks.stop()
            try? FileManager.default.removeItem(at: folder)  // only the session's cache
            throw error
        }
    }

    /// The clip a reading place points at: the one whose element it names, else the last whose element starts at or
    /// before its progression (the elements' places found by the plugin, by halving: clips follow the text).
    static func clipIndex(for locator: Locator, in chapter: NarrationRecorder.Chapter, _ publication: Publication)
        -> Int
    {
        var named = locator.locations.fragments ?? []
        if let hash = locator.href.firstIndex(of: "#") {
            named.append(String(locator.href[locator.href.index(after: hash)...]))
        }
        for id in named {
            if let i = chapter.clips.firstIndex(where: { Self.fragment(of: $0) == id }) { return i }
        }
        guard let wanted = locator.locations.progression, wanted > 0, !chapter.clips.isEmpty else { return 0 }
        func progression(_ i: Int) -> Double? {
            guard let id = Self.fragment(of: chapter.clips[i]) else { return nil }
            let asked = Locator(
                href: ReadAloud.itemPath(chapter.href), type: chapter.type ?? "application/xhtml+xml",
                locations: .init(fragments: [id]))
            return (try? publication.locate(asked))?.locations.progression
        }
        var lo = 0, hi = chapter.clips.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if let p = progression(mid), p > wanted + 1e-9 { hi = mid - 1 } else { lo = mid }
        }
        return lo
    }

    /// Where the narration starts for an element of narrated chapter `c`: the first phrase at or after it
    /// (PhraseOrder), the next chapter's first when none of this chapter's is (nil past the last chapter), the
    /// chapter's start when its text has no such element.
    static func start(
        at fragment: String, in c: Int, _ chapters: [NarrationRecorder.Chapter], order: PhraseOrder?
    ) -> NarrationRecorder.Start? {
        let ids = chapters[c].clips.map(Self.fragment(of:))
        guard let clip = order?.first(of: ids, atOrAfter: fragment) else { return NarrationRecorder.Start(chapter: c) }
        if clip < ids.count { return NarrationRecorder.Start(chapter: c, clip: clip) }
        return c + 1 < chapters.count ? NarrationRecorder.Start(chapter: c + 1) : nil
    }

    /// The fragment of an href ("text/ch2.xhtml#storm" → "storm"), percent-decoded; nil when it has none.
    static func fragment(of href: String) -> String? {
        guard let hash = href.firstIndex(of: "#"), href.index(after: hash) < href.endIndex else { return nil }
        let raw = String(href[href.index(after: hash)...])
        return raw.removingPercentEncoding ?? raw
    }

    static func fragment(of clip: NarrationRecorder.Clip) -> String? {
        guard let hash = clip.text.firstIndex(of: "#") else { return nil }
        let raw = String(clip.text[clip.text.index(after: hash)...])
        return raw.removingPercentEncoding ?? raw
    }

    /// The session's audiobook: a track for each narrated chapter, in reading order (those before where listening
    /// starts last no time: they are not cut in this session), its length the clips' when they all say theirs, its
    /// table of contents the book's, an entry inside a chapter at its phrase's time in the track (`#t=`) when the
    /// clips before it say their lengths.
    static func audiobookManifest(
        _ publication: Publication, chapters: [NarrationRecorder.Chapter],
        toc: [(title: String?, start: NarrationRecorder.Start?)], start: NarrationRecorder.Start, skipping: Bool
    ) throws -> Data {
        var metadata: [String: JSONValue] = [
            "@type": .string("http://schema.org/Audiobook"), "title": .string(publication.manifest.title ?? "Untitled"),
            "conformsTo": .string("https://readium.org/webpub-manifest/profiles/audiobook")
        ]
        if let language = ReadAloud.bookLanguage(publication.manifest) { metadata["language"] = .string(language) }
        let authors = publication.manifest.authors
        if !authors.isEmpty { metadata["author"] = .array(authors.map { .string($0) }) }
        let href = { (i: Int) in trackBase + String(format: "%03d.wav", i + 1) }
        // The seconds of a chapter's track before its clip `before` (all of them by default): the clips cut, or nil
        // when one of them does not say its length.
        func seconds(_ i: Int, before: Int? = nil) -> Double? {
            guard i >= start.chapter else { return 0 }
            let played = chapters[i].clips.prefix(before ?? chapters[i].clips.count).enumerated().filter { c, clip in
                !(i == start.chapter && c < start.clip) && !(skipping && isSkippable(clip))
            }.map(\.element)
            guard played.allSatisfy({ $0.end != nil }) else { return nil }
            return played.reduce(0.0) { $0 + max(0, ($1.end ?? 0) - $1.begin) }
        }
        let order = chapters.enumerated().map { i, chapter in
            Link(href: href(i), type: "audio/wav", title: chapter.title, duration: seconds(i))
        }
        let entries = toc.compactMap { entry -> Link? in
            guard let at = entry.start else { return nil }
            let offset = at.clip > 0 ? seconds(at.chapter, before: at.clip) ?? 0 : 0
            return Link(
                href: href(at.chapter) + (offset > 0 ? String(format: "#t=%.3f", offset) : ""),
                title: entry.title ?? chapters[at.chapter].title ?? "Chapter")
        }
        // Written by the Readium shapes' own writer, as ReadAloud's is.
        return ReadiumJSON.wire(Manifest(metadata: metadata, readingOrder: order, toc: entries))
    }

    // MARK: What is heard

    /// The clip heard at frame `offset` of a track: its chapter and mark.
    func heard(track: Int, frame offset: Int64) -> (chapter: Int, mark: NarrationRecorder.Mark)? {
        guard recorder.chapters.indices.contains(track) else { return nil }
        let marks = tracks.marks(of: track)
        guard let mark = marks.last(where: { $0.frame <= offset && $0.frames > 0 }) ?? marks.first else { return nil }
        return (track, mark)
    }

    /// The words of a chapter's phrases, by element id (read once).
    func phraseTexts(_ chapter: Int) -> [String: String] {
        if let known = phrases.withLock({ $0[chapter] }) { return known }
        let c = recorder.chapters[chapter]
        let ids = Set(c.clips.compactMap(Self.fragment(of:)))
        let texts =
            (try? publication.resource(ReadAloud.itemPath(c.href))).map {
                OverlayPhrases.texts(of: $0, ids: ids, href: c.href)
            } ?? [:]
        phrases.withLock { $0[chapter] = texts }
        return texts
    }

    func phrase(chapter: Int, clip: Int) -> String? {
        guard let id = recorder.chapters[safe: chapter]?.clips[safe: clip].flatMap(Self.fragment(of:)) else {
            return nil
        }
        return phraseTexts(chapter)[id]
    }

    /// The phrase heard at `global` on the session's timeline, for a front end to show.
    func phrase(at global: Int64, timeline: Timeline) -> String? {
        let (track, offset) = timeline.locate(global)
        guard let heard = heard(track: track, frame: offset) else { return nil }
        return phrase(chapter: heard.chapter, clip: heard.mark.clip)
    }

    /// The phrase heard at frame `offset` of a track, as a reading place: its element, where the plugin places it
    /// in the chapter, and its first words.
    func locator(track: Int, frame offset: Int64) -> Locator? {
        guard let heard = heard(track: track, frame: offset),
            let clip = recorder.chapters[heard.chapter].clips[safe: heard.mark.clip]
        else { return nil }
        let chapter = recorder.chapters[heard.chapter]
        var asked = Locator(
            href: ReadAloud.itemPath(chapter.href), type: chapter.type ?? "application/xhtml+xml", title: chapter.title,
            locations: .init(fragments: Self.fragment(of: clip).map { [$0] }))
        if let located = try? publication.locate(asked) {
            // No position: a fixed-layout page is one position, and the reader would open at its start.
            asked.locations.progression = located.locations.progression
            asked.text = located.text
        }
        if let words = phrase(chapter: heard.chapter, clip: heard.mark.clip), !words.isEmpty {
            asked.text = Locator.Text(before: asked.text?.before, highlight: TextQuote.highlight(of: words))
        }
        return asked
    }

    func locator(at global: Int64, timeline: Timeline) -> Locator? {
        let (track, offset) = timeline.locate(global)
        return locator(track: track, frame: offset)
    }

    /// Every clip cut whole so far, at its time on the session's timeline, up to `until` seconds when given (the clip
    /// being cut is left for a later call: its length is not known yet).
    func clipsPlayed(timeline: Timeline, until: Double? = nil) -> [NarratedClip] {
        let rate = Double(recorder.sampleRate ?? timeline.sampleRate)
        var out: [NarratedClip] = []
        for track in recorder.start.chapter..<recorder.chapters.count {
            let chapter = recorder.chapters[track]
            let complete = tracks.isComplete(track)
            var marks = tracks.marks(of: track)
            if !complete { marks = marks.dropLast() }
            for mark in marks {
                let clip = chapter.clips[mark.clip]
                let time = timeline.seconds(timeline.global(track: track, offset: mark.frame))
                if let until, time > until + 1e-6 { return out }
                let duration = Double(mark.frames) / rate
                out.append(
                    NarratedClip(
                        chapter: chapter.href, text: clip.text, audio: clip.audio, clipBegin: clip.begin,
                        clipEnd: clip.begin + duration, time: time, duration: duration, types: clip.types,
                        structure: clip.structure, phrase: phrase(chapter: track, clip: mark.clip)))
            }
            if !complete { return out }
        }
        return out
    }
}

/// Where the place is kept while a narration plays: the phrase heard, as the book's reading place.
/// Unchecked Sendable: one constant; the engine saves from its playing thread, the database takes its own lock.
final class NarrationPlace: PlaybackPositionSaving, @unchecked Sendable {
    unowned let narration: Narration
    init(_ narration: Narration) { self.narration = narration }

    func save(book: AudioBook, timeline: Timeline, at global: Int64) throws {
        guard let id = narration.shelfID, let locator = narration.locator(at: global, timeline: timeline) else {
            return
        }
        // No listening progress: the seconds of a session's narration are not the book's length.
        try narration.database.saveListeningPlace(
            bookID: id, locator: locator.jsonString(), seconds: timeline.seconds(global), duration: nil)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// Whether a listening session plays a narrated book's narration.
enum NarrationChoice: Sendable, Equatable {
    /// The narration, leaving out the skippable structures when `skipping`.
    case play(skipping: Bool)
    /// The text read aloud instead, as any book's.
    case ignore
}
