import Readium
import CPluginChannel
import Foundation
import PluginAPI

/// A handle an out-of-process plugin returned (a publication, a decoder, a connection): the child that holds it,
/// the plugin's own pointer there, and what it is of, for the one line should a call on it fail.
final class RemoteHandle {
    let plugin: RemotePlugin
    let child: PluginChild
    let id: Int64
    /// "file /books/x.fb2", "track 02.mp3 (file /books/x.json)", "service goodreads".
    let of: String
    /// A decoder's channel count, so a read knows the bytes of its frames.
    var channels = 0

    init(plugin: RemotePlugin, child: PluginChild, id: Int64, of: String) {
        self.plugin = plugin
        self.child = child
        self.id = id
        self.of = of
        child.handles.add(1, ordering: .relaxed)
    }

    deinit { child.handles.subtract(1, ordering: .relaxed) }

    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func from(_ pointer: OpaquePointer?) -> RemoteHandle? {
        pointer.map { Unmanaged<RemoteHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }

    static func release(_ pointer: OpaquePointer?) -> RemoteHandle? {
        pointer.map { Unmanaged<RemoteHandle>.fromOpaque(UnsafeRawPointer($0)).takeRetainedValue() }
    }
}

extension LoadedPlugin {
    /// Whether `handle` lived in a plugin process that has since ended (crashed, hung and stopped): whoever holds it
    /// opens its file again, in the process the next call starts.
    func lost(_ handle: OpaquePointer) -> Bool {
        guard let remote, let held = RemoteHandle.from(handle) else { return false }
        // Under the plugin's lock: a call on another thread may be ending that child now.
        remote.lock.lock()
        defer { remote.lock.unlock() }
        return held.child.end != nil
    }
}

/// The capability tables of every out-of-process plugin: each function sends its call over the channel of the
/// plugin's child and copies the answer back into the caller's writers and error, so the host's code calls an
/// out-of-process plugin exactly as it calls one in process. Calls without a handle find their plugin through
/// `RemotePlugin.current` (set by `LoadedPlugin.call`).
enum RemoteTables {
    static func table(_ id: String) -> UnsafeRawPointer? {
        switch id {
        case SHELF_EXT_FORMAT: return UnsafeRawPointer(format)
        case SHELF_EXT_PROBE: return UnsafeRawPointer(probe)
        case SHELF_EXT_RENDER: return UnsafeRawPointer(render)
        case SHELF_EXT_POSITIONS: return UnsafeRawPointer(positions)
        case SHELF_EXT_SEARCH: return UnsafeRawPointer(search)
        case SHELF_EXT_AUDIO: return UnsafeRawPointer(audio)
        case SHELF_EXT_READINGLIST: return UnsafeRawPointer(readingList)
        default: return nil
        }
    }

    static let extensionTable: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { id in
        id.flatMap { table(String(cString: $0)) }
    }

    static let initialise:
        @convention(c) (UnsafePointer<shelf_host>?, UnsafeMutablePointer<shelf_error>?) -> shelf_status = { host, _ in
            guard let host, let plugin = RemotePlugin.current else { return SHELF_E_INVALID_ARGUMENT }
            plugin.initialise(host: host)
            return SHELF_OK
        }

    // MARK: Making a call

    /// Runs a call; the reply's status, with its message and location copied into `err`. A call that could not be
    /// made (the child failed) is SHELF_E_INTERNAL with the one line as its message.
    static func perform(
        _ plugin: RemotePlugin, _ err: UnsafeMutablePointer<shelf_error>?,
        _ body: () throws -> ChannelMessage
    ) -> (shelf_status, ChannelMessage?) {
        plugin.lock.lock()
        defer { plugin.lock.unlock() }
        RemoteCallFailure.note(restarts: false)
        do {
            let answer = try body()
            let status = answer.status
            if status != SHELF_OK, let err {
                fill(err, status: status, message: answer.string(1) ?? "", location: answer.string(2) ?? "")
            }
            return (status, answer)
        } catch is CancelledCall {
            if let err { fill(err, status: SHELF_E_CANCELLED, message: "cancelled", location: "") }
            return (SHELF_E_CANCELLED, nil)
        } catch let failure as RemoteCallFailure {
            if let err { fill(err, status: SHELF_E_INTERNAL, message: failure.line, location: "") }
            RemoteCallFailure.note(restarts: failure.restarts)
            return (SHELF_E_INTERNAL, nil)
        } catch {
            if let err { fill(err, status: SHELF_E_INTERNAL, message: "\(error)", location: "") }
            return (SHELF_E_INTERNAL, nil)
        }
    }

    static func fill(_ err: UnsafeMutablePointer<shelf_error>, status: shelf_status, message: String, location: String)
    {
        err.pointee.status = status
        withUnsafeMutableBytes(of: &err.pointee.message) { copy(message, into: $0) }
        withUnsafeMutableBytes(of: &err.pointee.location) { copy(location, into: $0) }
    }

    private static func copy(_ text: String, into buffer: UnsafeMutableRawBufferPointer) {
        // Whole characters only: never a UTF-8 sequence cut in two.
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if bytes.count + encoded.count > buffer.count - 1 { break }
            bytes += encoded
        }
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }

    /// Writes a reply's field to a caller's writer; a writer's refusal (over its limit, cancelled) is the status.
    static func write(
        _ answer: ChannelMessage, field: Int, to writer: UnsafePointer<shelf_writer>?,
        _ err: UnsafeMutablePointer<shelf_error>?
    ) -> shelf_status {
        guard let writer, let write = writer.pointee.write else { return SHELF_E_INVALID_ARGUMENT }
        let bytes = answer.bytes(field)
        guard let base = bytes.baseAddress, bytes.count > 0 else { return SHELF_OK }
        let status = write(writer.pointee.context, base, bytes.count)
        if status != SHELF_OK, let err {
            fill(
                err, status: status,
                message: "the plugin's output could not be taken (\(PluginCallError.name(of: status)))", location: "")
        }
        return status
    }

    /// A call whose answer is one output document (manifest, resource, positions, locate, search, pull, push, ...).
    static func output(
        _ handle: RemoteHandle, _ op: shelf_channel_op, _ fields: [ChannelField], what: @autoclosure () -> String,
        _ out: UnsafePointer<shelf_writer>?, _ err: UnsafeMutablePointer<shelf_error>?
    ) -> shelf_status {
        let (status, answer) = perform(handle.plugin, err) {
            try handle.plugin.call(handle.child, op, [.int(handle.id)] + fields, what: "\(what()) (\(handle.of))")
        }
        guard status == SHELF_OK, let answer else { return status }
        return write(answer, field: 3, to: out, err)
    }

    static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    /// The href a Locator names, for the one line ("render of chapter-3.xhtml").
    static func href(ofLocator json: String?) -> String {
        // Only for the words of a message; the Locator itself goes to the plugin as given.
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let href = object["href"] as? String, !href.isEmpty
        else { return "the opening" }
        return href
    }

    /// The file a child must be able to read for an input: the input alone, its real path (its other files, an
    /// audiobook's tracks beside it, come through the companion files service).
    static func file(of path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return PluginSearchPath.realPath(absolute) ?? absolute
    }

    static func inputFields(_ input: UnsafePointer<shelf_input>) -> [ChannelField] {
        let i = input.pointee
        let head = i.head.map { Data(bytes: $0, count: i.head_size) } ?? Data()
        return [
            .string(string(i.path)), .string(string(i.uri) ?? string(i.path)), .string(string(i.media_type)),
            .bytes(head), .int(Int64(i.file_size))
        ]
    }

    // MARK: shelf.format/1

    // C tables made once and only read afterwards, so sharing the pointers between threads is safe (Swift cannot
    // know that of a C pointer).
    /// shelf.probe/1: the child answers the probe op with the plugin's own, and its error comes back in `err`.
    nonisolated(unsafe) static let probe: UnsafeMutablePointer<shelf_probe_v1> = {
        let t = UnsafeMutablePointer<shelf_probe_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_probe_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_probe_v1>.size)
        t.pointee.probe = { input, confidence, err in
            guard let input, let confidence, let plugin = RemotePlugin.current, let path = string(input.pointee.path)
            else {
                return SHELF_E_INVALID_ARGUMENT
            }
            let (status, answer) = perform(plugin, err) {
                let child = try plugin.child(for: file(of: path))
                return try plugin.call(child, SHELF_OP_PROBE, inputFields(input), what: "probe (file \(path))")
            }
            confidence.pointee = Int32(truncatingIfNeeded: answer?.int(3) ?? 0)
            return status
        }
        return t
    }()

    nonisolated(unsafe) static let format: UnsafeMutablePointer<shelf_format_v1> = {
        let t = UnsafeMutablePointer<shelf_format_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_format_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_format_v1>.size)
        t.pointee.probe = { input, confidence in
            guard let input, let confidence, let plugin = RemotePlugin.current, let path = string(input.pointee.path)
            else {
                return SHELF_E_INVALID_ARGUMENT
            }
            var err = PluginCall.newError()
            let failedBefore = plugin.failure != nil
            let (status, answer) = perform(plugin, &err) {
                let child = try plugin.child(for: file(of: path))
                return try plugin.call(child, SHELF_OP_PROBE, inputFields(input), what: "probe (file \(path))")
            }
            // A failed probe counts as "not mine", so the router goes on to other plugins: the line is logged, once.
            if answer == nil, !failedBefore, let id = plugin.id {
                HostServices.log(id, SHELF_LOG_ERROR, PluginCall.message(of: &err), filter: plugin.logFilter)
            }
            confidence.pointee = Int32(truncatingIfNeeded: answer?.int(3) ?? 0)
            return status
        }
        t.pointee.open = { input, options, out, err in
            guard let input, let out, let plugin = RemotePlugin.current, let path = string(input.pointee.path) else {
                return SHELF_E_INVALID_ARGUMENT
            }
            var child: PluginChild?
            let (status, answer) = perform(plugin, err) {
                child = try plugin.child(for: file(of: path))
                return try plugin.call(
                    child!, SHELF_OP_OPEN, inputFields(input) + [.string(string(options))],
                    what: "open (file \(path))")
            }
            guard status == SHELF_OK, let answer, let child, answer.int(3) != 0 else { return status }
            out.pointee = RemoteHandle(plugin: plugin, child: child, id: answer.int(3), of: "file \(path)").pointer
            return SHELF_OK
        }
        t.pointee.manifest = { publication, out, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            return output(handle, SHELF_OP_MANIFEST, [], what: "manifest", out, err)
        }
        t.pointee.resource = { publication, href, out, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            return output(
                handle, SHELF_OP_RESOURCE, [.string(string(href))], what: "resource \(string(href) ?? "")", out, err)
        }
        t.pointee.close = { publication in
            guard let handle = RemoteHandle.release(publication), handle.child.end == nil, handle.plugin.failure == nil
            else { return }
            _ = perform(handle.plugin, nil) {
                try handle.plugin.call(handle.child, SHELF_OP_CLOSE, [.int(handle.id)], what: "close (\(handle.of))")
            }
        }
        return t
    }()

    // MARK: shelf.render/1, shelf.positions/1, shelf.search/1

    nonisolated(unsafe) static let render: UnsafeMutablePointer<shelf_render_v1> = {
        let t = UnsafeMutablePointer<shelf_render_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_render_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_render_v1>.size)
        t.pointee.render = { publication, locator, settings, content, whereTo, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            let (status, answer) = perform(handle.plugin, err) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_RENDER,
                    [.int(handle.id), .string(string(locator)), .string(string(settings))],
                    what: "render of \(href(ofLocator: string(locator))) (\(handle.of))")
            }
            guard status == SHELF_OK, let answer else { return status }
            let written = write(answer, field: 3, to: content, err)
            return written == SHELF_OK ? write(answer, field: 4, to: whereTo, err) : written
        }
        return t
    }()

    nonisolated(unsafe) static let positions: UnsafeMutablePointer<shelf_positions_v1> = {
        let t = UnsafeMutablePointer<shelf_positions_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_positions_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_positions_v1>.size)
        t.pointee.positions = { publication, out, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            return output(handle, SHELF_OP_POSITIONS, [], what: "positions", out, err)
        }
        t.pointee.locate = { publication, locator, out, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            return output(
                handle, SHELF_OP_LOCATE, [.string(string(locator))],
                what: "locate of \(href(ofLocator: string(locator)))", out, err)
        }
        return t
    }()

    nonisolated(unsafe) static let search: UnsafeMutablePointer<shelf_search_v1> = {
        let t = UnsafeMutablePointer<shelf_search_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_search_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_search_v1>.size)
        t.pointee.search = { publication, query, out, err in
            guard let handle = RemoteHandle.from(publication) else { return SHELF_E_INVALID_ARGUMENT }
            // As in `href(ofLocator:)`: only the words of a message.
            let words =
                (string(query).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?[
                    "query"] as? String) ?? ""
            return output(handle, SHELF_OP_SEARCH, [.string(string(query))], what: "search for \"\(words)\"", out, err)
        }
        return t
    }()

    // MARK: shelf.audio/1

    nonisolated(unsafe) static let audio: UnsafeMutablePointer<shelf_audio_v1> = {
        let t = UnsafeMutablePointer<shelf_audio_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_audio_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_audio_v1>.size)
        t.pointee.open_decoder = { publication, href, options, format, out, err in
            guard let handle = RemoteHandle.from(publication), let format, let out else {
                return SHELF_E_INVALID_ARGUMENT
            }
            let track = string(href) ?? ""
            let requested = Data(bytes: format, count: MemoryLayout<shelf_audio_format>.size)
            let (status, answer) = perform(handle.plugin, err) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_AUDIO_OPEN,
                    [.int(handle.id), .string(track), .string(string(options)), .bytes(requested)],
                    what: "opening track \(track) (\(handle.of))")
            }
            guard status == SHELF_OK, let answer, answer.int(3) != 0 else { return status }
            let described = answer.bytes(4)
            guard described.count == MemoryLayout<shelf_audio_format>.size else { return SHELF_E_INTERNAL }
            let size = format.pointee.struct_size
            UnsafeMutableRawPointer(format).copyMemory(from: described.baseAddress!, byteCount: described.count)
            format.pointee.struct_size = size
            let decoder = RemoteHandle(
                plugin: handle.plugin, child: handle.child, id: answer.int(3), of: "track \(track) (\(handle.of))")
            decoder.channels = Int(format.pointee.channels)
            out.pointee = decoder.pointer
            return SHELF_OK
        }
        t.pointee.seek = { decoder, frame, err in
            guard let handle = RemoteHandle.from(decoder) else { return SHELF_E_INVALID_ARGUMENT }
            return perform(handle.plugin, err) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_AUDIO_SEEK, [.int(handle.id), .int(frame)], what: "seek (\(handle.of))")
            }.0
        }
        t.pointee.read = { decoder, buffer, capacity, framesRead, err in
            guard let handle = RemoteHandle.from(decoder), let buffer, let framesRead else {
                return SHELF_E_INVALID_ARGUMENT
            }
            let (status, answer) = perform(handle.plugin, err) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_AUDIO_READ,
                    [.int(handle.id), .int(Int64(capacity)), .int(Int64(handle.channels))],
                    what: "decoding (\(handle.of))")
            }
            framesRead.pointee = 0
            guard status == SHELF_OK, let answer else { return status }
            let samples = answer.bytes(4)
            let frames = min(Int(max(answer.int(3), 0)), capacity, samples.count / max(handle.channels * 4, 1))
            if frames > 0, let base = samples.baseAddress {
                UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: frames * handle.channels * 4)
            }
            framesRead.pointee = frames
            return SHELF_OK
        }
        t.pointee.close_decoder = { decoder in
            guard let handle = RemoteHandle.release(decoder), handle.child.end == nil, handle.plugin.failure == nil
            else { return }
            _ = perform(handle.plugin, nil) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_AUDIO_CLOSE, [.int(handle.id)], what: "closing (\(handle.of))")
            }
        }
        return t
    }()

    // MARK: shelf.readinglist/1

    /// The files a connection's "file" settings name (readinglist.h: the patron chose them, and the host checked each
    /// is a readable file): the child that holds the connection may read them, as a book's child reads the book.
    /// Which settings are files the connector's own `describe` says.
    static func fileSettings(_ plugin: RemotePlugin, service: String, settings: String?, description text: String?)
        -> [String]
    {
        guard let settings, let values = try? JSONSerialization.jsonObject(with: Data(settings.utf8)) as? [String: Any],
            !values.isEmpty, let text,
            let description = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let declared = description["settings"] as? [[String: Any]]
        else { return [] }
        let files = declared.filter { $0["type"] as? String == "file" }.compactMap { $0["key"] as? String }
        let chosen = files.compactMap { values[$0] as? String }.filter { $0.hasPrefix("/") }.map { file(of: $0) }
        return Array(Set(chosen)).sorted()
    }

    nonisolated(unsafe) static let readingList: UnsafeMutablePointer<shelf_readinglist_v1> = {
        let t = UnsafeMutablePointer<shelf_readinglist_v1>.allocate(capacity: 1)
        t.initialize(to: shelf_readinglist_v1())
        t.pointee.struct_size = UInt32(MemoryLayout<shelf_readinglist_v1>.size)
        t.pointee.describe = { service, out, err in
            guard let plugin = RemotePlugin.current else { return SHELF_E_INVALID_ARGUMENT }
            let name = string(service) ?? ""
            let (status, answer) = perform(plugin, err) {
                try plugin.call(
                    try plugin.child(for: nil), SHELF_OP_LIST_DESCRIBE, [.string(name)],
                    what: "describe (service \(name))")
            }
            guard status == SHELF_OK, let answer else { return status }
            return write(answer, field: 3, to: out, err)
        }
        t.pointee.connect = { service, settings, out, err in
            guard let plugin = RemotePlugin.current, let out else { return SHELF_E_INVALID_ARGUMENT }
            let name = string(service) ?? ""
            var child: PluginChild?
            let (status, answer) = perform(plugin, err) {
                let described = try plugin.call(
                    try plugin.child(for: nil), SHELF_OP_LIST_DESCRIBE, [.string(name)],
                    what: "describe (service \(name))")
                let description = described.status == SHELF_OK ? described.string(3) : nil
                child = try plugin.child(
                    reading: fileSettings(plugin, service: name, settings: string(settings), description: description))
                // The connection's requests go only to its service's hosts (ConnectorReach).
                child!.reach.include(ConnectorReach(settings: string(settings), description: description))
                return try plugin.call(
                    child!, SHELF_OP_LIST_CONNECT, [.string(name), .string(string(settings))],
                    what: "connect (service \(name))")
            }
            guard status == SHELF_OK, let answer, let child, answer.int(3) != 0 else { return status }
            out.pointee = RemoteHandle(plugin: plugin, child: child, id: answer.int(3), of: "service \(name)").pointer
            return SHELF_OK
        }
        t.pointee.pull = { connection, options, out, err in
            guard let handle = RemoteHandle.from(connection) else { return SHELF_E_INVALID_ARGUMENT }
            return output(handle, SHELF_OP_LIST_PULL, [.string(string(options))], what: "pull", out, err)
        }
        t.pointee.push = { connection, entries, out, err in
            guard let handle = RemoteHandle.from(connection) else { return SHELF_E_INVALID_ARGUMENT }
            return output(handle, SHELF_OP_LIST_PUSH, [.string(string(entries))], what: "push", out, err)
        }
        t.pointee.authorize_begin = { connection, options, out, err in
            guard let handle = RemoteHandle.from(connection) else { return SHELF_E_INVALID_ARGUMENT }
            return output(
                handle, SHELF_OP_LIST_AUTHORIZE_BEGIN, [.string(string(options))], what: "authorize_begin", out, err)
        }
        t.pointee.authorize_complete = { connection, callback, err in
            guard let handle = RemoteHandle.from(connection) else { return SHELF_E_INVALID_ARGUMENT }
            return perform(handle.plugin, err) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_LIST_AUTHORIZE_COMPLETE, [.int(handle.id), .string(string(callback))],
                    what: "authorize_complete (\(handle.of))")
            }.0
        }
        t.pointee.disconnect = { connection in
            guard let handle = RemoteHandle.release(connection), handle.child.end == nil, handle.plugin.failure == nil
            else { return }
            _ = perform(handle.plugin, nil) {
                try handle.plugin.call(
                    handle.child, SHELF_OP_LIST_DISCONNECT, [.int(handle.id)], what: "disconnect (\(handle.of))")
            }
        }
        return t
    }()
}
