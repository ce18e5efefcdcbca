internal import ShelfPlayback
internal import ShelfPlugins
import Foundation
import Readium

// The --json documents about plugins and books opened from files (docs/json.md, "shelf plugins" and "shelf info").

/// Every plugin found and every library refused, with the reason.
public struct PluginListing: Encodable, Sendable {
    public struct Entry: Encodable, Sendable {
        public let id, name, version: String
        public let license, vendor, description: String?
        public let path: String
        public let abi: String
        public let mediaTypes, fileExtensions, services, capabilities: [String]
        public let concurrentHandles: Bool
        /// "in-process", "confined" or "unconfined", and why (PluginRunPlace).
        public let runs: PluginRunPlace.Place
        public let runsBecause: String
        /// Where it runs and why, for people.
        public var runsInWords: String { PluginRunPlace(place: runs, because: runsBecause).inWords }
        /// What a plugin built for another minor of ABI 1 lacks, or that it is newer than this shelf; absent when
        /// nothing.
        public let abiNote: String?
    }
    public struct Refusal: Encodable, Sendable { public let path, reason: String }
    public let plugins: [Entry]
    public let refused: [Refusal]

    /// What the registry holds now (call `loadAll()` first to list every plugin, not only those loaded).
    init(_ registry: PluginRegistry) {
        plugins = registry.plugins.map { p in
            let d = p.descriptor
            let place = registry.runPlace(of: p)
            return Entry(
                id: d.id, name: d.name, version: d.version, license: d.license, vendor: d.vendor,
                description: d.description, path: p.path, abi: "\(d.abiMajor).\(d.abiMinor)",
                mediaTypes: d.mediaTypes, fileExtensions: d.fileExtensions, services: d.services,
                capabilities: p.capabilities, concurrentHandles: d.concurrentHandles,
                runs: place.place, runsBecause: place.because, abiNote: ABIMinor.note(p))
        }
        refused = registry.refused.map { Refusal(path: $0.path, reason: $0.reason) }
    }
}

/// A book opened from a file: title, authors, format, chapters.
public struct BookInfo: Encodable, Sendable {
    public let path: String
    public let title: String?
    public let authors: [String]
    public let format: String
    public let mediaType: String?
    public let language: [String]
    public let plugin: String
    public let pluginName: String
    public let chapters: Int
    public let readingOrderItems: Int
    /// Audiobook tracks that are missing or do not play as long as they declare.
    public let damagedTracks: [TrackProblem]
    /// An audiobook's length in seconds (its tracks' durations added up), when every track states one.
    public let duration: Double?
    /// Who reads the book aloud, when the book says (nil otherwise, so other books' documents do not change).
    public let narrators: [String]?

    public init(_ file: BookFile) {
        let publication = file.publication
        let manifest = publication.manifest
        switch manifest.metadata["language"] {
        case .string(let s)?: language = [s]
        case .array(let a)?: language = a.compactMap(\.string)
        default: language = []
        }
        path = publication.input.path
        title = manifest.title
        authors = manifest.authors
        format = publication.formatInWords
        mediaType = publication.input.mediaType
        plugin = publication.plugin.descriptor.id
        pluginName = publication.plugin.descriptor.name
        chapters = manifest.toc?.isEmpty == false ? manifest.toc!.count : manifest.readingOrder.count
        readingOrderItems = manifest.readingOrder.count
        damagedTracks = TrackProblem.find(in: manifest)
        let isAudio = publication.format == .audiobook
        let durations = manifest.readingOrder.compactMap(\.duration)
        duration =
            isAudio && !durations.isEmpty && durations.count == manifest.readingOrder.count
            ? durations.reduce(0, +) : nil
        let readers = manifest.contributors("narrator")
        narrators = readers.isEmpty ? nil : readers
    }
}

/// A reading-order item rendered, as `shelf render --json` prints it: where it is, and the text or HTML.
public struct RenderedJSON: Encodable, Sendable {
    public let locator: Locator?
    public let content: String

    public init(_ rendered: RenderedItem) {
        locator = rendered.locator
        content = String(decoding: rendered.content, as: UTF8.self)
    }
}

/// A resource or cover written to a file, as `shelf resource` and `shelf cover` say with --json: its href, its
/// media type (as the manifest gives it), where it went and how many bytes.
public struct ExtractedResourceJSON: Encodable, Sendable {
    public let href: String
    public let type: String?
    public let path: String
    public let bytes: Int

    public init(href: String, file: BookFile, path: String, bytes: Int) {
        self.href = href
        let manifest = file.manifest
        type = (manifest.readingOrder + (manifest.resources ?? []) + manifest.links).first { $0.href == href }?.type
        self.path = path
        self.bytes = bytes
    }
}

/// The settings a format plugin renders with (plugin.h, render): text at a width, or HTML with the font scale
/// (percent), the font and the theme; what is nil is the plugin's default.
public struct RenderRequest: Encodable, Sendable {
    public let `as`: String
    public let width: Int
    public let fontScale: Int?
    public let font: String?
    public let theme: String?

    public init(as format: String, width: Int, fontScale: Int?, font: String?, theme: String?) {
        self.as = format
        self.width = width
        self.fontScale = fontScale
        self.font = font
        self.theme = theme
    }
}
