import Foundation
import PluginAPI

/// Crossing the C boundary: errors into `shelf_error`, output through `shelf_writer`,
/// inputs out of `shelf_input`. Everything here is what plugin.h's rules demand.
enum CBridge {
    static func fill(_ err: UnsafeMutablePointer<shelf_error>?, _ failure: PluginFailure) -> shelf_status {
        guard let err else { return failure.status }
        err.pointee.status = failure.status
        copy(failure.message, into: &err.pointee.message)
        copy(failure.location ?? "", into: &err.pointee.location)
        return failure.status
    }

    /// Copies a UTF-8 string into a fixed C array, truncated on a character boundary, NUL-terminated.
    static func copy<T>(_ text: String, into array: inout T) {
        withUnsafeMutableBytes(of: &array) { buffer in
            var bytes = Array(text.utf8.prefix(buffer.count - 1))
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }

    /// Runs one ABI call: any thrown error becomes a status plus a message, never a crash.
    static func guarded(_ err: UnsafeMutablePointer<shelf_error>?, _ body: () throws -> Void) -> shelf_status {
        do {
            try body()
            return SHELF_OK
        } catch let failure as PluginFailure {
            return fill(err, failure)
        } catch let failure as DecodingError {
            return fill(err, .invalidArgument("malformed JSON argument: \(failure)"))
        } catch {
            return fill(err, PluginFailure(SHELF_E_INTERNAL, "\(error)"))
        }
    }

    static func emit(_ data: Data, to writer: UnsafePointer<shelf_writer>?) throws {
        guard let writer, let write = writer.pointee.write else {
            throw PluginFailure.invalidArgument("no output writer was passed")
        }
        guard !data.isEmpty else { return }
        let status = data.withUnsafeBytes { write(writer.pointee.context, $0.baseAddress, $0.count) }
        if status != SHELF_OK { throw PluginFailure(status, "the host stopped the output") }
    }

    static func emit<T: Encodable>(json value: T, to writer: UnsafePointer<shelf_writer>?) throws {
        try emit(ReadiumJSON.wire(value), to: writer)
    }

    static func input(_ raw: UnsafePointer<shelf_input>?) throws -> PluginInput {
        guard let raw, raw.pointee.struct_size >= MemoryLayout<shelf_input>.size,
            let path = raw.pointee.path
        else {
            throw PluginFailure.invalidArgument("missing or short shelf_input")
        }
        let p = String(cString: path)
        let head: [UInt8]
        if let bytes = raw.pointee.head, raw.pointee.head_size > 0 {
            head = Array(UnsafeBufferPointer(start: bytes, count: raw.pointee.head_size))
        } else {
            head = []
        }
        return PluginInput(
            path: p,
            uri: raw.pointee.uri.map { String(cString: $0) } ?? p,
            mediaType: raw.pointee.media_type.map { String(cString: $0) },
            head: head,
            fileSize: raw.pointee.file_size)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: UnsafePointer<CChar>?, what: String) throws -> T? {
        guard let json else { return nil }
        let data = Data(bytes: json, count: strlen(json))
        // Strictly JSON first (RFC 8259): JSONDecoder, which reads the types that are no Readium shape, takes trailing commas.
        do {
            _ = try JSONReader.parse(data)
        } catch let error as JSONError {
            throw PluginFailure.invalidArgument("the \(what) is not valid JSON (\(error.reason))")
        }
        do {
            return try ReadiumJSON.decode(type, from: data)
        } catch let error as JSONError {
            throw PluginFailure.invalidArgument("the \(what) is not of the expected shape (\(error.reason))")
        } catch {
            throw PluginFailure.invalidArgument("the \(what) is not valid JSON of the expected shape")
        }
    }
}
