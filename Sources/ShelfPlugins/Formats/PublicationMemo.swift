import Readium
import ShelfCore
import Foundation
import Glibc

/// What shelf learnt about one book file the last time it opened it: which plugin opened it, the
/// manifest that plugin wrote, and, once asked for, the book's positions list.
///
/// Routing a file means loading and asking every plugin that claims its type (both EPUB plugins
/// claim every EPUB); opening it, reading its package and navigation documents and writing the
/// manifest; and every `shelf read` needs the whole positions list ("page 48 of 2,615"), which the
/// plugin computes, writes as JSON and the host reads back. All of it depends only on the file and
/// the plugin, so it is kept in the cache folder (positions in a compact binary form) and used
/// while both are unchanged: a known book's publication opens its file through the plugin only
/// when a call needs it (`Publication`).
///
/// A memo is only ever a shortcut: a missing, stale, damaged or foreign file is ignored (and
/// rewritten at the next open), never an error.
struct PublicationMemo {
    let pluginID: String
    /// The manifest exactly as the plugin wrote it.
    let manifestJSON: Data
    let positions: [Locator]?

    /// The memo of `bookPath` when it was made from this very file by `plugin` as it is now.
    static func load(bookPath: String, folder: URL, registry: PluginRegistry) -> (
        memo: PublicationMemo, plugin: LoadedPlugin
    )? {
        let bookPath = absolute(bookPath)
        // A cache: a memo missing, unreadable or from another file or plugin is no memo, and the book is opened anew.
        guard let book = FileIdentity(path: bookPath),
            let data = try? Data(contentsOf: file(for: bookPath, in: folder))
        else { return nil }
        var reader = ByteReader(data)
        // As above.
        guard let header = try? Header.read(&reader), header.bookPath == bookPath, header.book == book,
            let known = registry.plugin(id: header.pluginID), known.isFormatPlugin,
            known.descriptor.version == header.pluginVersion, FileIdentity(path: known.path) == header.pluginFile,
            let manifestLength = try? Int(reader.u32()), let manifest = try? reader.take(manifestLength)
        else { return nil }
        var positions: [Locator]?
        if header.hasPositions {
            // As above.
            guard let decoded = try? LocatorCoder.decode(&reader) else { return nil }
            positions = decoded
        }
        guard reader.isAtEnd else { return nil }
        return (PublicationMemo(pluginID: header.pluginID, manifestJSON: Data(manifest), positions: positions), known)
    }

    /// Remembers that `plugin` opened `bookPath`, with the manifest it wrote and the positions it computed
    /// if any. Written to a temporary file and renamed, so a reader never sees half a memo; a failure only
    /// costs speed.
    static func save(manifestJSON: Data, positions: [Locator]?, bookPath: String, plugin: LoadedPlugin, folder: URL) {
        let bookPath = absolute(bookPath)
        guard let book = FileIdentity(path: bookPath), let pluginFile = FileIdentity(path: plugin.path) else { return }
        var writer = ByteWriter()
        Header(
            bookPath: bookPath, book: book, pluginID: plugin.descriptor.id, pluginVersion: plugin.descriptor.version,
            pluginFile: pluginFile, hasPositions: positions != nil
        ).write(to: &writer)
        writer.u32(UInt32(manifestJSON.count))
        writer.bytes += manifestJSON
        if let positions { LocatorCoder.encode(positions, to: &writer) }
        let path = file(for: bookPath, in: folder).path
        // The folder is made only when the write finds it missing: asking first cost every first open.
        if !AtomicFile.replace(path, with: writer.bytes) {
            // A failure only costs speed (above); the write below then fails as quietly.
            try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            AtomicFile.replace(path, with: writer.bytes)
        }
        prune(folder)
    }

    /// How many memos the cache folder keeps: a long book's is a few hundred KB, and a patron who runs
    /// `shelf info` over a whole folder of books should not find the cache grown by as many.
    static let limit = 256

    /// Deletes the memos written longest ago beyond `limit` (each comes back, at the cost of one
    /// plugin open, the next time its book is opened). Runs only when a memo was written, never on a read.
    static func prune(_ folder: URL, limit: Int = limit) {
        let memos = (DirectoryNames.list(folder.path) ?? []).filter { $0.hasSuffix(".memo") }
        guard memos.count > limit else { return }
        let dated = memos.map { name -> (path: String, written: Int64) in
            let path = folder.appendingPathComponent(name).path
            return (path, FileIdentity(path: path)?.modified ?? 0)
        }
        for old in dated.sorted(by: { $0.written < $1.written }).prefix(memos.count - limit) {
            unlink(old.path)
        }
    }

    /// The same book named from two folders is one memo.
    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// One file per book path, named by a hash of it (the path itself is checked inside).
    static func file(for bookPath: String, in folder: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in bookPath.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return folder.appendingPathComponent(String(hash, radix: 16) + ".memo")
    }

    private struct Header {
        // 3: locators keep members the model does not name; a memo 2 lost them, so it is rebuilt.
        static let magic = Array("shelf publication memo 3\n".utf8)
        var bookPath: String
        var book: FileIdentity
        var pluginID: String
        var pluginVersion: String
        var pluginFile: FileIdentity
        var hasPositions: Bool

        func write(to writer: inout ByteWriter) {
            writer.bytes += Self.magic
            writer.string(bookPath)
            writer.identity(book)
            writer.string(pluginID)
            writer.string(pluginVersion)
            writer.identity(pluginFile)
            writer.bytes.append(hasPositions ? 1 : 0)
        }

        static func read(_ reader: inout ByteReader) throws -> Header {
            guard try reader.take(magic.count).elementsEqual(magic) else { throw ByteReader.Malformed() }
            return Header(
                bookPath: try reader.string(), book: try reader.identity(), pluginID: try reader.string(),
                pluginVersion: try reader.string(), pluginFile: try reader.identity(),
                hasPositions: try reader.take(1).first == 1)
        }
    }
}

/// Locators in a compact binary form: a table of the distinct strings (a book has a few hundred
/// hrefs for thousands of positions), then each locator as indexes into it and its numbers.
enum LocatorCoder {
    private static let none = UInt32.max
    private enum Field: UInt8 {
        case position = 1, progression = 2, totalProgression = 4, fragments = 8, text = 16, extra = 32
    }

    /// Members neither `Locator` nor its locations name (a plugin's `cssSelector`, `partialCfi`...), kept so that a
    /// memo answers what the plugin wrote. Rare in positions lists, so plain JSON is fast enough.
    private struct Extra: Codable {
        var locator: [String: JSONValue]
        var locations: [String: JSONValue]
    }

    static func encode(_ locators: [Locator], to writer: inout ByteWriter) {
        var table: [String] = []
        var index: [String: UInt32] = [:]
        func id(_ string: String?) -> UInt32 {
            guard let string else { return none }
            if let known = index[string] { return known }
            let next = UInt32(table.count)
            table.append(string)
            index[string] = next
            return next
        }
        var body = ByteWriter()
        for locator in locators {
            body.u32(id(locator.href))
            body.u32(id(locator.type))
            body.u32(id(locator.title))
            let l = locator.locations
            var fields: UInt8 = 0
            if l.position != nil { fields |= Field.position.rawValue }
            if l.progression != nil { fields |= Field.progression.rawValue }
            if l.totalProgression != nil { fields |= Field.totalProgression.rawValue }
            if l.fragments != nil { fields |= Field.fragments.rawValue }
            if locator.text != nil { fields |= Field.text.rawValue }
            let extra =
                locator.extra.isEmpty && l.extra.isEmpty
                ? nil
                // Members that came from JSON encode back; were one not to, the memo keeps the locator without them.
                : (try? JSONEncoder().encode(Extra(locator: locator.extra, locations: l.extra)))
                    .map { String(decoding: $0, as: UTF8.self) }
            if extra != nil { fields |= Field.extra.rawValue }
            body.bytes.append(fields)
            if let position = l.position { body.u64(UInt64(bitPattern: Int64(position))) }
            if let progression = l.progression { body.u64(progression.bitPattern) }
            if let total = l.totalProgression { body.u64(total.bitPattern) }
            if let fragments = l.fragments {
                body.u32(UInt32(fragments.count))
                for fragment in fragments { body.u32(id(fragment)) }
            }
            if let text = locator.text {
                body.u32(id(text.before))
                body.u32(id(text.highlight))
                body.u32(id(text.after))
            }
            if let extra { body.u32(id(extra)) }
        }
        writer.u32(UInt32(table.count))
        for string in table { writer.string(string) }
        writer.u32(UInt32(locators.count))
        writer.bytes += body.bytes
    }

    /// Reads what `encode` wrote, from where `reader` stands; the caller checks what follows.
    static func decode(_ reader: inout ByteReader) throws -> [Locator] {
        let tableCount = try reader.count(minimumBytesEach: 4)
        var table: [String] = []
        table.reserveCapacity(tableCount)
        for _ in 0..<tableCount { table.append(try reader.string()) }
        func string(_ id: UInt32) throws -> String? {
            if id == none { return nil }
            guard Int(id) < table.count else { throw ByteReader.Malformed() }
            return table[Int(id)]
        }
        func required(_ id: UInt32) throws -> String {
            guard let value = try string(id) else { throw ByteReader.Malformed() }
            return value
        }
        let count = try reader.count(minimumBytesEach: 13)
        var locators: [Locator] = []
        locators.reserveCapacity(count)
        for _ in 0..<count {
            var locator = Locator(
                href: try required(reader.u32()), type: try required(reader.u32()),
                title: try string(reader.u32()))
            let fields = try reader.take(1).first ?? 0
            func has(_ field: Field) -> Bool { fields & field.rawValue != 0 }
            if has(.position) { locator.locations.position = Int(Int64(bitPattern: try reader.u64())) }
            if has(.progression) { locator.locations.progression = Double(bitPattern: try reader.u64()) }
            if has(.totalProgression) { locator.locations.totalProgression = Double(bitPattern: try reader.u64()) }
            if has(.fragments) {
                let n = try reader.count(minimumBytesEach: 4)
                locator.locations.fragments = try (0..<n).map { _ in try required(reader.u32()) }
            }
            if has(.text) {
                locator.text = Locator.Text(
                    before: try string(reader.u32()), highlight: try string(reader.u32()),
                    after: try string(reader.u32()))
            }
            if has(.extra) {
                let extra = try JSONDecoder().decode(Extra.self, from: Data(try required(reader.u32()).utf8))
                locator.extra = extra.locator
                locator.locations.extra = extra.locations
            }
            locators.append(locator)
        }
        return locators
    }
}
