import Foundation
import PluginAPI

/// The capability vtables, built once. Each entry unwraps the C arguments, calls the Swift
/// protocol, and turns the result into writer output or a status (see CBridge).
enum Extensions {
    final class Box {
        let publication: PublicationHandle
        init(_ publication: PublicationHandle) { self.publication = publication }
    }

    static func publication(_ raw: OpaquePointer?) throws -> PublicationHandle {
        guard let raw else { throw PluginFailure.invalidArgument("NULL publication handle") }
        return Unmanaged<Box>.fromOpaque(UnsafeRawPointer(raw)).takeUnretainedValue().publication
    }

    static func capable<T>(_ raw: OpaquePointer?, _ what: String) throws -> T {
        guard let p = try publication(raw) as? T else {
            throw PluginFailure.unsupported("this plugin cannot \(what) this publication yet")
        }
        return p
    }

    static func table(for capability: PluginInfo.Capability) -> UnsafeRawPointer {
        switch capability {
        case .format: return UnsafeRawPointer(format)
        case .probe: return UnsafeRawPointer(probe)
        case .render: return UnsafeRawPointer(render)
        case .positions: return UnsafeRawPointer(positions)
        case .search: return UnsafeRawPointer(search)
        case .audio: return UnsafeRawPointer(audio)
        case .readingList: return UnsafeRawPointer(ReadingListExtension.table)
        }
    }

    // The capability tables below are written once, when first used, and only read afterwards (by the host, through
    // get_extension), so the pointers are shared between threads safely; Swift cannot know that of a C pointer,
    // hence `nonisolated(unsafe)` on each.
    static func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
        p.initialize(to: value)
        return p
    }

    nonisolated(unsafe) static let format: UnsafeMutablePointer<shelf_format_v1> = allocate(
        shelf_format_v1(
            struct_size: UInt32(MemoryLayout<shelf_format_v1>.size),
            probe: { input, confidence in
                guard let confidence else { return SHELF_E_INVALID_ARGUMENT }
                confidence.pointee = 0
                // An input the kit cannot read is one the plugin cannot open: confidence 0 is the answer, as format.h
                // asks probe to answer rather than fail.
                guard let plugin = PluginExport.instance as? FormatPlugin,
                    let parsed = try? CBridge.input(input)
                else { return SHELF_OK }
                confidence.pointee = min(max(plugin.probe(parsed), 0), 100)
                return SHELF_OK
            },
            open: { input, _, out, err in
                CBridge.guarded(err) {
                    guard let out else { throw PluginFailure.invalidArgument("NULL out handle") }
                    out.pointee = nil
                    guard let plugin = PluginExport.instance as? FormatPlugin else {
                        throw PluginFailure(SHELF_E_INTERNAL, "open called before init")
                    }
                    let publication = try plugin.open(try CBridge.input(input))
                    out.pointee = OpaquePointer(Unmanaged.passRetained(Box(publication)).toOpaque())
                }
            },
            manifest: { handle, out, err in
                CBridge.guarded(err) {
                    try CBridge.emit(json: try publication(handle).manifest(), to: out)
                }
            },
            resource: { handle, href, out, err in
                CBridge.guarded(err) {
                    guard let href else { throw PluginFailure.invalidArgument("NULL href") }
                    try CBridge.emit(try publication(handle).resource(href: String(cString: href)), to: out)
                }
            },
            close: { handle in
                guard let handle else { return }
                Unmanaged<Box>.fromOpaque(UnsafeRawPointer(handle)).release()
            }
        ))

    /// shelf.probe/1 (ABI 1.1): the format's probe, able to say why a file the plugin knows cannot be opened.
    nonisolated(unsafe) static let probe: UnsafeMutablePointer<shelf_probe_v1> = allocate(
        shelf_probe_v1(
            struct_size: UInt32(MemoryLayout<shelf_probe_v1>.size),
            probe: { input, confidence, err in
                guard let confidence else { return SHELF_E_INVALID_ARGUMENT }
                confidence.pointee = 0
                // As the format's probe: an input the kit cannot read is not this plugin's (0); only the plugin's own
                // refusal is an error.
                guard let plugin = PluginExport.instance as? FormatPlugin, let parsed = try? CBridge.input(input) else {
                    return SHELF_OK
                }
                return CBridge.guarded(err) {
                    confidence.pointee = min(max(try plugin.probeExplaining(parsed), 0), 100)
                }
            }
        ))

    nonisolated(unsafe) static let render: UnsafeMutablePointer<shelf_render_v1> = allocate(
        shelf_render_v1(
            struct_size: UInt32(MemoryLayout<shelf_render_v1>.size),
            render: { handle, locator, settings, content, whereOut, err in
                CBridge.guarded(err) {
                    let p: RenderingPublication = try capable(handle, "render")
                    let at = try CBridge.decode(Locator.self, locator, what: "locator")
                    let s =
                        try CBridge.decode(RenderSettings.self, settings, what: "render settings") ?? RenderSettings()
                    let rendered = try p.render(at: at, settings: s)
                    try CBridge.emit(rendered.content, to: content)
                    if whereOut != nil { try CBridge.emit(json: rendered.locator, to: whereOut) }
                }
            }
        ))

    nonisolated(unsafe) static let positions: UnsafeMutablePointer<shelf_positions_v1> = allocate(
        shelf_positions_v1(
            struct_size: UInt32(MemoryLayout<shelf_positions_v1>.size),
            positions: { handle, out, err in
                CBridge.guarded(err) {
                    let p: PositionedPublication = try capable(handle, "list positions of")
                    try CBridge.emit(json: try p.positions(), to: out)
                }
            },
            locate: { handle, locator, out, err in
                CBridge.guarded(err) {
                    let p: PositionedPublication = try capable(handle, "locate positions in")
                    guard let at = try CBridge.decode(Locator.self, locator, what: "locator") else {
                        throw PluginFailure.invalidArgument("NULL locator")
                    }
                    try CBridge.emit(json: try p.locate(at), to: out)
                }
            }
        ))

    struct SearchQuery: Decodable {
        var query: String
        var limit: Int?
    }

    nonisolated(unsafe) static let search: UnsafeMutablePointer<shelf_search_v1> = allocate(
        shelf_search_v1(
            struct_size: UInt32(MemoryLayout<shelf_search_v1>.size),
            search: { handle, query, out, err in
                CBridge.guarded(err) {
                    let p: SearchablePublication = try capable(handle, "search")
                    guard let q = try CBridge.decode(SearchQuery.self, query, what: "search query") else {
                        throw PluginFailure.invalidArgument("NULL search query")
                    }
                    try CBridge.emit(json: try p.search(q.query, limit: max(1, min(q.limit ?? 100, 10_000))), to: out)
                }
            }
        ))

    final class DecoderBox {
        let decoder: AudioDecoder
        init(_ decoder: AudioDecoder) { self.decoder = decoder }
    }

    static func decoder(_ raw: OpaquePointer?) throws -> AudioDecoder {
        guard let raw else { throw PluginFailure.invalidArgument("NULL decoder handle") }
        return Unmanaged<DecoderBox>.fromOpaque(UnsafeRawPointer(raw)).takeUnretainedValue().decoder
    }

    struct DecoderOptions: Decodable {
        var file: String?
    }

    nonisolated(unsafe) static let audio: UnsafeMutablePointer<shelf_audio_v1> = allocate(
        shelf_audio_v1(
            struct_size: UInt32(MemoryLayout<shelf_audio_v1>.size),
            open_decoder: { handle, href, options, format, out, err in
                CBridge.guarded(err) {
                    guard let out else { throw PluginFailure.invalidArgument("NULL out decoder") }
                    out.pointee = nil
                    guard let href else { throw PluginFailure.invalidArgument("NULL href") }
                    guard let format, format.pointee.struct_size >= UInt32(MemoryLayout<shelf_audio_format>.size) else {
                        throw PluginFailure.invalidArgument("missing or short shelf_audio_format")
                    }
                    let p: AudioPublication = try capable(handle, "decode audio of")
                    let o = try CBridge.decode(DecoderOptions.self, options, what: "decoder options")
                    let wantRate = format.pointee.sample_rate
                    let wantChannels = format.pointee.channels
                    let d = try p.openDecoder(
                        href: String(cString: href),
                        sampleRate: wantRate == 0 ? nil : Int(wantRate),
                        channels: wantChannels == 0 ? nil : Int(wantChannels),
                        file: o?.file)
                    let f = d.format
                    format.pointee.sample_rate = UInt32(clamping: f.sampleRate)
                    format.pointee.channels = UInt32(clamping: f.channels)
                    format.pointee.sample_format = UInt32(SHELF_AUDIO_SAMPLE_F32)
                    format.pointee.total_frames = f.totalFrames ?? -1
                    format.pointee.frames_exact = f.framesExact ? 1 : 0
                    format.pointee.reserved = 0
                    out.pointee = OpaquePointer(Unmanaged.passRetained(DecoderBox(d)).toOpaque())
                }
            },
            seek: { handle, frame, err in
                CBridge.guarded(err) {
                    guard frame >= 0 else { throw PluginFailure.invalidArgument("negative frame \(frame)") }
                    try decoder(handle).seek(toFrame: frame)
                }
            },
            read: { handle, buffer, capacity, framesRead, err in
                CBridge.guarded(err) {
                    guard let framesRead else { throw PluginFailure.invalidArgument("NULL frames_read") }
                    framesRead.pointee = 0
                    guard let buffer else { throw PluginFailure.invalidArgument("NULL buffer") }
                    let n = try decoder(handle).read(into: buffer, capacity: Int(clamping: capacity))
                    framesRead.pointee = n < 0 ? 0 : min(Int(n), Int(clamping: capacity))
                }
            },
            close_decoder: { handle in
                guard let handle else { return }
                Unmanaged<DecoderBox>.fromOpaque(UnsafeRawPointer(handle)).release()
            }
        ))
}
