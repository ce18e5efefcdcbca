import CPluginChannel
import Foundation

/// One message received on a plugin's channel (CPluginChannel.h), freed when it goes away.
final class ChannelMessage {
    private var raw: shelf_message

    init(_ raw: shelf_message) { self.raw = raw }
    deinit { shelf_message_free(&raw) }

    var op: UInt32 { raw.op }
    var count: Int { Int(raw.count) }

    func string(_ index: Int) -> String? {
        withUnsafeMutablePointer(to: &raw) { shelf_message_string($0, UInt32(index)).map { String(cString: $0) } }
    }

    func int(_ index: Int) -> Int64 {
        withUnsafeMutablePointer(to: &raw) { shelf_message_int($0, UInt32(index)) }
    }

    /// A field's bytes, valid while this message lives.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        guard index < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let message = raw
        let pointer = withUnsafeBytes(of: message.field) {
            $0.load(fromByteOffset: index * MemoryLayout<UnsafePointer<UInt8>?>.stride, as: UnsafePointer<UInt8>?.self)
        }
        let length = withUnsafeBytes(of: message.length) { $0.load(fromByteOffset: index * 4, as: UInt32.self) }
        return UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(length))
    }

    func data(_ index: Int) -> Data { Data(bytes(index)) }

    /// A reply's status and the error's message and location (fields 0, 1, 2).
    var status: Int32 { Int32(truncatingIfNeeded: int(0)) }
}

/// A field of a message to send.
enum ChannelField {
    case string(String?)
    case int(Int64)
    case double(Double)
    case bytes(Data)

    /// Sends `fields` as one message: copied once into one buffer whose pieces the C framing writes out.
    static func send(_ fd: Int32, _ op: UInt32, _ fields: [ChannelField]) -> Bool {
        var pieces: [[UInt8]?] = []
        for field in fields {
            switch field {
            case .string(let text): pieces.append(text.map { Array($0.utf8) })
            case .int(var n): pieces.append(withUnsafeBytes(of: &n) { Array($0) })
            case .double(var d): pieces.append(withUnsafeBytes(of: &d) { Array($0) })
            case .bytes(let data): pieces.append([UInt8](data))
            }
        }
        let lengths = pieces.map { UInt32($0?.count ?? 0) }
        let total = pieces.reduce(0) { $0 + ($1?.count ?? 0) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 8)
        defer { buffer.deallocate() }
        var pointers: [UnsafeRawPointer?] = []
        var offset = 0
        for piece in pieces {
            guard let piece else { pointers.append(nil); continue }
            piece.withUnsafeBytes {
                buffer.advanced(by: offset).copyMemory(
                    from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: piece.count)
            }
            pointers.append(UnsafeRawPointer(buffer.advanced(by: offset)))
            offset += piece.count
        }
        return pointers.withUnsafeBufferPointer { p in
            lengths.withUnsafeBufferPointer { l in
                shelf_channel_send(fd, op, UInt32(fields.count), p.baseAddress, l.baseAddress) == 0
            }
        }
    }
}
