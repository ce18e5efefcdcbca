import ShelfCore
import ShelfPlugins
import Foundation
import ShelfValues
import PluginAPI
import Readium

/// An audiobook opened for playback: a publication handle of its own on a plugin that offers
/// `shelf.audio/1`, its manifest, and its tracks. Decoders are opened per track on demand.
/// Unchecked Sendable: the manifest and tracks are constant once open; decoders are opened per track by the one playing thread, and plugin calls take the plugin's call lock.
public final class AudioBook: @unchecked Sendable {
    public struct Track: Sendable, Equatable {
        public let index: Int
        public let href: String
        public let type: String?
        public let title: String?
        /// Seconds from the manifest (measured by the plugin for local tracks).
        public let declaredDuration: Double?
        /// True when the track is on the network and must be downloaded before it can play.
        public let isRemote: Bool
        /// What the plugin found wrong with the track ("is missing", "plays 0:07 of the 0:13 it
        /// declares"), from the manifest's `shelf:missing` / `shelf:damaged`; nil when it is sound.
        public let problem: String?
    }

    /// The tracks the plugin found missing or damaged, in reading order.
    public var damagedTracks: [Track] { tracks.filter { $0.problem != nil } }

    public let plugin: LoadedPlugin
    public let input: PublicationInput
    public let manifest: Manifest
    public let tracks: [Track]
    /// Local files for remote tracks, by track index, once downloaded (see Downloads). Under `filesLock`: parts
    /// arrive on the downloader's threads while the engine opens tracks on the playing thread.
    private var localFiles: [Int: String] = [:]
    private let filesLock = NSLock()
    private let handle: OpaquePointer
    private let format: UnsafePointer<shelf_format_v1>
    let audio: UnsafePointer<shelf_audio_v1>

    /// Opens `input` through the router's choice; fails when that plugin cannot decode audio.
    public convenience init(path: String, uri: String? = nil, router: FormatRouter) throws {
        let input = try PublicationInput(path: path, uri: uri)
        let choice = try router.choose(for: input)
        try self.init(plugin: choice.plugin, input: input)
    }

    public init(plugin: LoadedPlugin, input: PublicationInput) throws {
        guard let format = plugin.format, let open = format.pointee.open else {
            throw ShelfError(.unavailable, "plugin \(plugin.descriptor.id) cannot open files", subject: input.path)
        }
        guard
            let audio = plugin.extensionTable(SHELF_EXT_AUDIO, minimumSize: MemoryLayout<shelf_audio_v1>.size)?
                .assumingMemoryBound(to: shelf_audio_v1.self)
        else {
            throw ShelfError(
                .unavailable,
                "this is not an audiobook: the plugin \(plugin.descriptor.id) that opens it cannot play audio",
                subject: input.path,
                next: NextStep(
                    terminal: "`shelf info` describes it; `shelf render` shows an eBook's text.", browser: nil))
        }
        self.plugin = plugin
        self.input = input
        self.format = format
        self.audio = audio
        var raw: OpaquePointer?
        var error = PluginCall.newError()
        let status = plugin.call { input.withCInput { open($0, nil, &raw, &error) } }
        do { try PluginCall.check(status, &error, plugin) } catch let failure as PluginCallError {
            throw failure.shelfError(subject: input.path)
        }
        guard let raw else {
            throw ShelfError(
                .software, "plugin \(plugin.descriptor.id) reported success but returned no publication",
                subject: input.path)
        }
        handle = raw
        do {
            let data = try PluginCall.collect(plugin) { out, err in
                format.pointee.manifest?(raw, out, err) ?? SHELF_E_UNSUPPORTED
            }
            manifest = try Manifest.parse(data)
        } catch {
            plugin.call { format.pointee.close?(raw) }
            if let failure = error as? PluginCallError { throw failure.shelfError(subject: input.path) }
            throw ShelfError(
                .software, "plugin \(plugin.descriptor.id) wrote a manifest that is not valid (\(error))",
                subject: input.path)
        }
        tracks = manifest.readingOrder.enumerated().map { i, link in
            let remote = link.href.lowercased().hasPrefix("http://") || link.href.lowercased().hasPrefix("https://")
            let problem = TrackProblem.problem(of: link)?.text
            return Track(
                index: i, href: link.href, type: link.type, title: link.title,
                declaredDuration: link.duration, isRemote: remote, problem: problem)
        }
        guard !tracks.isEmpty else {
            plugin.call { format.pointee.close?(raw) }
            throw ShelfError(.badData, "the audiobook has no tracks", subject: input.path)
        }
    }

    deinit {
        let (format, handle) = (self.format, self.handle)
        plugin.call { format.pointee.close?(handle) }
    }

    public var title: String { manifest.title ?? (input.path as NSString).lastPathComponent }

    /// The downloaded file of a remote track, once it is whole here.
    public func localFile(_ index: Int) -> String? { filesLock.withLock { localFiles[index] } }

    /// Records the file a remote track was downloaded to; false when one was recorded already.
    @discardableResult
    public func adoptLocalFile(_ path: String, track index: Int) -> Bool {
        filesLock.withLock {
            guard localFiles[index] == nil else { return false }
            localFiles[index] = path
            return true
        }
    }

    /// Opens a decoder for a track; `sampleRate`/`channels` 0 mean the track's own. `file` reads the track from
    /// that file instead (a part still downloading: the decoder plays the bytes already there).
    public func openDecoder(track index: Int, sampleRate: Int = 0, channels: Int = 0, file: String? = nil) throws
        -> TrackPCMDecoder
    {
        guard tracks.indices.contains(index) else {
            throw ShelfError(.noInput, "no track \(index + 1)", subject: input.path)
        }
        let track = tracks[index]
        var options: String?
        if let file = file ?? localFile(index) {
            options = ReadiumJSON.encode(["file": file])
        }
        return try TrackPCMDecoder(
            book: self, href: track.href, options: options, sampleRate: sampleRate, channels: channels)
    }

    func withHandle<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T { try body(handle) }
}
