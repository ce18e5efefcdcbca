import Foundation

/// Why a JSON text was refused (what is wrong, and at which byte), or why a value cannot be written as JSON.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// A strict RFC 8259 reader into `JSONValue`, and the cursor the Readium shapes are read with (ShapesJSON.swift).
/// Throws `JSONError` on anything it does not accept; nesting deeper than `maxDepth` is refused, never a
/// stack overflow. A member named twice in an object takes its last value, as JavaScript's JSON.parse does.
public struct JSONReader {
    static let maxDepth = 512

    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            try parse(
                UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
        }
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0) }
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var reader = Cursor(buffer: buffer)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.i == buffer.count else { throw JSONError("trailing characters at byte \(reader.i)") }
        return value
    }

    struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var i = 0
        /// The last media type read (see `optionalType()`).
        var lastType: String?

        init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

        @inline(__always) mutating func skipSpace() {
            while i < buffer.count {
                let b = buffer[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
            }
        }

        @inline(__always) func peek() throws -> UInt8 {
            guard i < buffer.count else { throw JSONError("the text ends in the middle of a value") }
            return buffer[i]
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
            let n = word.utf8CodeUnitCount
            guard i + n <= buffer.count else { throw JSONError("the text ends in the middle of a value") }
            let p = word.utf8Start
            for k in 0..<n where buffer[i + k] != p[k] { throw JSONError("bad literal at byte \(i)") }
            i += n
            return value
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONReader.maxDepth else {
                throw JSONError("nested deeper than \(JSONReader.maxDepth) levels at byte \(i)")
            }
            switch try peek() {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "{"):
                i += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if try peek() == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard try peek() == UInt8(ascii: "\"") else { throw JSONError("expected a key at byte \(i)") }
                    let key = try string()
                    skipSpace()
                    guard try peek() == UInt8(ascii: ":") else { throw JSONError("expected : at byte \(i)") }
                    i += 1
                    skipSpace()
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                    let b = try peek()
                    i += 1
                    if b == UInt8(ascii: ",") { continue }
                    if b == UInt8(ascii: "}") { return .object(members) }
                    throw JSONError("expected , or } at byte \(i - 1)")
                }
            case UInt8(ascii: "["): return .array(try elements { try $0.value(depth: depth + 1) })
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return .number(try number())
            }
        }

        mutating func colon() throws {
            skipSpace()
            guard try peek() == UInt8(ascii: ":") else { throw JSONError("expected : at byte \(i)") }
            i += 1
            skipSpace()
        }

        /// Calls `member` for each key of an object; the closure reads the value.
        mutating func members(_ member: (inout Cursor) throws -> Void) throws {
            guard try peek() == UInt8(ascii: "{") else { throw JSONError("expected an object at byte \(i)") }
            i += 1
            skipSpace()
            if try peek() == UInt8(ascii: "}") { i += 1; return }
            while true {
                skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw JSONError("expected a key at byte \(i)") }
                try member(&self)
                skipSpace()
                let b = try peek()
                i += 1
                if b == UInt8(ascii: ",") { continue }
                if b == UInt8(ascii: "}") { return }
                throw JSONError("expected , or } at byte \(i - 1)")
            }
        }

        /// Reads an array whose every item `item` reads.
        mutating func elements<T>(_ item: (inout Cursor) throws -> T) throws -> [T] {
            guard try peek() == UInt8(ascii: "[") else { throw JSONError("expected an array at byte \(i)") }
            i += 1
            var out: [T] = []
            skipSpace()
            if try peek() == UInt8(ascii: "]") { i += 1; return out }
            while true {
                skipSpace()
                out.append(try item(&self))
                skipSpace()
                let b = try peek()
                i += 1
                if b == UInt8(ascii: ",") { continue }
                if b == UInt8(ascii: "]") { return out }
                throw JSONError("expected , or ] at byte \(i - 1)")
            }
        }

        mutating func optionalString() throws -> String? {
            switch try peek() {
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "n"): _ = try literal("null", .null); return nil
            default: throw JSONError("expected a string at byte \(i)")
            }
        }

        /// A media type: a string or null, as `optionalString()` reads it, and the last one again when it has
        /// the same bytes. The media types of a long book's links are a handful repeated thousands of times, and
        /// "application/xhtml+xml" is too long to be stored in place: each new copy took an allocation.
        mutating func optionalType() throws -> String? {
            if try peek() == UInt8(ascii: "\""), var previous = lastType {
                let start = i + 1
                let end = previous.withUTF8 { p -> Int? in
                    let end = start + p.count
                    guard end < buffer.count, buffer[end] == 0x22, let base = p.baseAddress,
                        memcmp(base, buffer.baseAddress! + start, p.count) == 0
                    else { return nil }
                    return end
                }
                if let end {
                    i = end + 1
                    return previous
                }
            }
            let s = try optionalString()
            // Kept only without the bytes that `string()` reads otherwise than as themselves (quote, backslash,
            // control characters), so that the same bytes followed by a quote are the same string.
            if var s, s.withUTF8({ !$0.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }) { lastType = s }
            return s
        }

        mutating func optionalDouble() throws -> Double? {
            switch try value(depth: 1) {
            case .null: return nil
            case .number(let n): return n
            default: throw JSONError("expected a number before byte \(i)")
            }
        }

        /// A locator read straight from the bytes, as `Locator(json:)` reads it from a parsed value.

        @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        mutating func number() throws -> Double {
            let start = i
            if i < buffer.count, buffer[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buffer.count, isDigit(buffer[i]) else { throw JSONError("bad number at byte \(start)") }
            var integral = true
            if buffer[i] == 0x30 { i += 1 } else { while i < buffer.count, isDigit(buffer[i]) { i += 1 } }
            if i < buffer.count, buffer[i] == UInt8(ascii: ".") {
                integral = false
                i += 1
                guard i < buffer.count, isDigit(buffer[i]) else { throw JSONError("bad number at byte \(start)") }
                while i < buffer.count, isDigit(buffer[i]) { i += 1 }
            }
            if i < buffer.count, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
                integral = false
                i += 1
                if i < buffer.count, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") { i += 1 }
                guard i < buffer.count, isDigit(buffer[i]) else { throw JSONError("bad number at byte \(start)") }
                while i < buffer.count, isDigit(buffer[i]) { i += 1 }
            }
            // Small integers (positions, sizes): exact without going through text.
            if integral, i - start <= 15 {
                var n = 0
                var k = start
                let negative = buffer[k] == UInt8(ascii: "-")
                if negative { k += 1 }
                while k < i { n = n * 10 + Int(buffer[k] - 0x30); k += 1 }
                return Double(negative ? -n : n)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { throw JSONError("number out of range at byte \(start)") }
            return d
        }

        func hexValue(_ b: UInt8) throws -> UInt32 {
            switch b {
            case 0x30...0x39: return UInt32(b - 0x30)
            case 0x41...0x46: return UInt32(b - 0x41 + 10)
            case 0x61...0x66: return UInt32(b - 0x61 + 10)
            default: throw JSONError("bad \\u escape at byte \(i)")
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= buffer.count else { throw JSONError("the text ends in the middle of a value") }
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 4 | (try hexValue(buffer[i + k])) }
            i += 4
            return v
        }

        mutating func string() throws -> String {
            i += 1  // the opening quote
            let start = i
            let (end, ascii) = plainRun(from: start)
            i = end
            guard end < buffer.count else { throw JSONError("a string with no closing quote") }
            switch buffer[end] {
            case 0x22:
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                i += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw JSONError("a string that is not UTF-8 before byte \(i)")
                }
                return s
            case 0x5C: return try escapedString(from: start)
            default: throw JSONError("control character in a string at byte \(i)")
            }
        }

        /// Where the bytes of a string that stand for themselves end, from `start`: at the first quote,
        /// backslash or control character, or at the end of the buffer; and whether they are all ASCII.
        /// Eight bytes at a time, as the writer checks them.
        @inline(__always) func plainRun(from start: Int) -> (end: Int, ascii: Bool) {
            guard let base = buffer.baseAddress else { return (start, true) }
            var k = start
            var seen: UInt64 = 0
            while k + 8 <= buffer.count {
                let word = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
                if hasQuoteBackslashOrControl(word) { break }
                seen |= word
                k += 8
            }
            while k < buffer.count {
                let b = base[k]
                if b == 0x22 || b == 0x5C || b < 0x20 { break }
                seen |= UInt64(b)
                k += 1
            }
            return (k, seen & 0x8080_8080_8080_8080 == 0)
        }

        /// The slow path of `string()`: a string with escapes, decoded into bytes.
        mutating func escapedString(from start: Int) throws -> String {
            var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: buffer[start..<i]))
            while i < buffer.count {
                let b = buffer[i]
                if b == 0x22 {
                    i += 1
                    guard let s = String(validating: out, as: UTF8.self) else {
                        throw JSONError("a string that is not UTF-8 before byte \(i)")
                    }
                    return s
                }
                if b < 0x20 { throw JSONError("control character in a string at byte \(i)") }
                if b != 0x5C { out.append(b); i += 1; continue }
                i += 1
                guard i < buffer.count else { throw JSONError("the text ends in the middle of a value") }
                let e = buffer[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 6 <= buffer.count, buffer[i] == 0x5C, buffer[i + 1] == UInt8(ascii: "u") else {
                            throw JSONError("a lone surrogate escape before byte \(i)")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else {
                            throw JSONError("a lone surrogate escape before byte \(i)")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw JSONError("a lone surrogate escape before byte \(i)")
                    }
                    guard let u = Unicode.Scalar(scalar) else {
                        throw JSONError("a \\u escape that is no character before byte \(i)")
                    }
                    out.append(contentsOf: UTF8.encode(u)!)
                default: throw JSONError("bad escape at byte \(i - 1)")
                }
            }
            throw JSONError("a string with no closing quote")
        }
    }
}
