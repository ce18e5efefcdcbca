import Foundation
import PluginAPI
@_exported import Readium

/// What a Swift plugin declares about itself; PluginKit turns it into the C descriptor.
public struct PluginInfo: Sendable {
    public enum Capability: String, Sendable {
        case format = "shelf.format/1"
        /// A probe that can say why (`FormatPlugin.probeExplaining`), ABI 1.1.
        case probe = "shelf.probe/1"
        case render = "shelf.render/1"
        case positions = "shelf.positions/1"
        case search = "shelf.search/1"
        case audio = "shelf.audio/1"
        case readingList = "shelf.readinglist/1"
    }

    public var id: String
    public var name: String
    public var version: String
    public var license: String
    public var vendor: String?
    public var url: String?
    public var description: String?
    public var mediaTypes: [String]
    public var fileExtensions: [String]
    public var services: [String]
    public var capabilities: Set<Capability>
    /// SHELF_PLUGIN_CONCURRENT_HANDLES: separate handles may be used from separate threads at once.
    /// Off unless the plugin asks: then the host serialises every call into it (plugin.h, "Threading").
    public var concurrentHandles: Bool

    public init(
        id: String, name: String, version: String, license: String = "MIT",
        vendor: String? = "shelf", url: String? = nil, description: String? = nil,
        mediaTypes: [String] = [], fileExtensions: [String] = [], services: [String] = [],
        capabilities: Set<Capability> = [], concurrentHandles: Bool = false
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.license = license
        self.vendor = vendor
        self.url = url
        self.description = description
        self.mediaTypes = mediaTypes
        self.fileExtensions = fileExtensions
        self.services = services
        self.capabilities = capabilities
        self.concurrentHandles = concurrentHandles
    }
}

/// An input as the host presents it (see `shelf_input` in format.h).
public struct PluginInput: Sendable {
    public var path: String
    public var uri: String
    public var mediaType: String?
    public var head: [UInt8]
    public var fileSize: UInt64

    public init(path: String, uri: String, mediaType: String?, head: [UInt8], fileSize: UInt64) {
        self.path = path
        self.uri = uri
        self.mediaType = mediaType
        self.head = head
        self.fileSize = fileSize
    }

    public var fileExtension: String { (path as NSString).pathExtension.lowercased() }
}

/// Reader settings for render (see shelf.render/1).
public struct RenderSettings: Codable, Equatable, Sendable {
    public enum Output: String, Codable, Sendable { case text, html }
    public var `as`: Output
    public var width: Int
    public var fontScale: Int
    public var font: String
    public var theme: String

    public init(
        as output: Output = .text, width: Int = 72, fontScale: Int = 100,
        font: String = "serif", theme: String = "day"
    ) {
        self.as = output
        self.width = width
        self.fontScale = fontScale
        self.font = font
        self.theme = theme
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = RenderSettings()
        // Each `try?`: a setting of the wrong type is left at its default rather than refusing the page, since a
        // reader setting is a wish (the host's own settings are checked where the patron gives them).
        self.as = (try? c.decodeIfPresent(Output.self, forKey: .as)) ?? d.as
        // Out-of-range values are clamped rather than refused: a reader setting is a wish.
        self.width = min(max((try? c.decodeIfPresent(Int.self, forKey: .width)) ?? d.width, 10), 1000)
        self.fontScale = min(max((try? c.decodeIfPresent(Int.self, forKey: .fontScale)) ?? d.fontScale, 25), 800)
        self.font = (try? c.decodeIfPresent(String.self, forKey: .font)) ?? d.font
        self.theme = (try? c.decodeIfPresent(String.self, forKey: .theme)) ?? d.theme
    }
}

/// Every plugin: its declaration and its one-time set-up.
public protocol ShelfPlugin: AnyObject {
    static var info: PluginInfo { get }
    init(host: PluginHost) throws
}

/// A format plugin: probes and opens inputs.
public protocol FormatPlugin: ShelfPlugin {
    /// 0...100; never throws on foreign bytes (see shelf_format_v1.probe).
    func probe(_ input: PluginInput) -> Int32
    /// As `probe`, but a file that is this plugin's own and that it cannot open throws a `PluginFailure` saying why
    /// (shelf.probe/1, ABI 1.1: declare `.probe` among the capabilities). By default, `probe`.
    func probeExplaining(_ input: PluginInput) throws -> Int32
    func open(_ input: PluginInput) throws -> PublicationHandle
}

extension FormatPlugin {
    public func probeExplaining(_ input: PluginInput) throws -> Int32 { probe(input) }
}

/// An open publication. The optional capabilities below are separate protocols so that a
/// plugin offers exactly what it implements.
public protocol PublicationHandle: AnyObject {
    func manifest() throws -> Manifest
    func resource(href: String) throws -> Data
}

public struct Rendered {
    public var content: Data
    public var locator: Locator
    public init(content: Data, locator: Locator) {
        self.content = content
        self.locator = locator
    }
}

public protocol RenderingPublication: PublicationHandle {
    func render(at locator: Locator?, settings: RenderSettings) throws -> Rendered
}

public protocol PositionedPublication: PublicationHandle {
    func positions() throws -> [Locator]
    func locate(_ locator: Locator) throws -> Locator
}

public protocol SearchablePublication: PublicationHandle {
    func search(_ query: String, limit: Int) throws -> [Locator]
}

/// PCM as `shelf.audio/1` asks for it: the format a decoder delivers (see audio.h).
public struct AudioFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Frames in the track at `sampleRate`, or nil when unknown until the end.
    public var totalFrames: Int64?
    /// True when `totalFrames` is exact, false when it is an estimate.
    public var framesExact: Bool

    public init(sampleRate: Int, channels: Int, totalFrames: Int64?, framesExact: Bool) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.totalFrames = totalFrames
        self.framesExact = framesExact
    }
}

/// One open track decoder (see `shelf_audio_v1`): interleaved float32 frames, sample-accurate seek.
public protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    func seek(toFrame frame: Int64) throws
    /// Fills up to `capacity` frames; returns the number written, 0 only at the end.
    func read(into buffer: UnsafeMutablePointer<Float>, capacity: Int) throws -> Int
}

/// A publication whose reading-order tracks decode to PCM (`shelf.audio/1`).
public protocol AudioPublication: PublicationHandle {
    /// `sampleRate`/`channels` nil mean the track's own; `file` is a local copy the host downloaded.
    func openDecoder(href: String, sampleRate: Int?, channels: Int?, file: String?) throws -> AudioDecoder
}
