import Foundation

/// Compact JSON into a byte buffer.
///
/// The buffer is the writer's own malloc'd memory rather than an `[UInt8]`: every append to an array checks
/// uniqueness and capacity, and a manifest of a long book is some twenty thousand appends. Noncopyable, so
/// that the memory has one owner and is freed once, or handed to `Data` without a copy (`data()`).
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = Swift.max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("JSONWriter: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// What has been written so far (a copy).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// What was written, as `Data` that takes over the writer's memory.
    public consuming func data() -> Data {
        let data = Data(bytesNoCopy: base, count: count, deallocator: .free)
        discard self
        return data
    }

    /// Room for `n` more bytes; where they go.
    @inline(__always) private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(count + n > capacity) { grow(to: count + n) }
        return base + count
    }

    @inline(never) private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        // realloc: a large buffer is moved by remapping its pages, not by copying them.
        guard let memory = realloc(base, newCapacity) else { fatalError("JSONWriter: out of memory") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always) mutating func raw(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n).update(from: text.utf8Start, count: n)
        count += n
    }

    /// A JSON string: `"` and `\` escaped, control characters as \n, \t, ... or \u00XX; the rest as UTF-8.
    public mutating func string(_ s: String) {
        // Room for the worst case, every byte written as \u00XX, so that the copy needs no checks.
        let out = reserve(s.utf8.count * 6 + 2)
        // Not `withUTF8`: it is mutating, and the copy of `s` it needs costs a retain and a release.
        if let n = s.utf8.withContiguousStorageIfAvailable({ JSONWriter.quote($0, into: out) }) {
            count += n
        } else {
            var s = s
            count += s.withUTF8 { JSONWriter.quote($0, into: out) }
        }
    }

    private static let hex: StaticString = "0123456789abcdef"

    /// Writes `"text"` at `out`, escaped; returns how many bytes that took.
    private static func quote(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = out
        o.pointee = 0x22
        o += 1
        if let p = text.baseAddress {
            let n = text.count
            var i = 0
            // Eight bytes at a time, copied as they are checked, while none of them needs escaping: most
            // strings have no byte that does, and most are too short for a call to memcpy to pay.
            while i + 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if !hasQuoteBackslashOrControl(word) {
                    UnsafeMutableRawPointer(o).storeBytes(of: word, as: UInt64.self)
                    o += 8
                    i += 8
                    continue
                }
                for _ in 0..<8 {
                    o = put(p[i], at: o)
                    i += 1
                }
            }
            while i < n {
                o = put(p[i], at: o)
                i += 1
            }
        }
        o.pointee = 0x22
        o += 1
        return o - out
    }

    /// One byte of a string at `o`, escaped if it must be; where the next goes.
    @inline(__always) private static func put(_ b: UInt8, at o: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<
        UInt8
    > {
        if b >= 0x20 && b != 0x22 && b != 0x5C {
            o.pointee = b
            return o + 1
        }
        o.pointee = 0x5C
        switch b {
        case 0x22: o[1] = 0x22
        case 0x5C: o[1] = 0x5C
        case 0x0A: o[1] = UInt8(ascii: "n")
        case 0x0D: o[1] = UInt8(ascii: "r")
        case 0x09: o[1] = UInt8(ascii: "t")
        case 0x08: o[1] = UInt8(ascii: "b")
        case 0x0C: o[1] = UInt8(ascii: "f")
        default:
            o[1] = UInt8(ascii: "u"); o[2] = 0x30; o[3] = 0x30
            o[4] = hex.utf8Start[Int(b >> 4)]; o[5] = hex.utf8Start[Int(b & 0xF)]
            return o + 6
        }
        return o + 2
    }

    public mutating func int(_ n: Int) {
        if n >= 0 && n < 10 { raw(0x30 + UInt8(n)); return }
        // Digits from the right into a scratch area, then moved into place: no String made.
        let out = reserve(21)
        var magnitude = n.magnitude
        var digits = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            repeat {
                scratch[19 - digits] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                digits += 1
            } while magnitude > 0
            var o = out
            if n < 0 { o.pointee = UInt8(ascii: "-"); o += 1 }
            o.update(from: scratch.baseAddress! + (20 - digits), count: digits)
        }
        count += digits + (n < 0 ? 1 : 0)
    }

    /// A double as JSONEncoder writes it ("1" for 1.0, "0.25", "1e-05"); a non-finite one is refused
    /// (JSONEncoder throws for it too).
    public mutating func double(_ d: Double) throws {
        guard d.isFinite else { throw JSONError("\(d) is not a JSON number") }
        if d.rounded() == d, abs(d) < 1e15 { int(Int(d)); return }
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(utf8: text.utf8)
    }

    private mutating func append(utf8: String.UTF8View) {
        let n = utf8.count
        let out = reserve(n)
        _ = UnsafeMutableBufferPointer(start: out, count: n).initialize(from: utf8)
        count += n
    }

    public mutating func bool(_ b: Bool) { b ? raw("true") : raw("false") }
    public mutating func null() { raw("null") }

    /// Member separator bookkeeping for objects and arrays written by hand.
    @inline(__always) mutating func key(_ name: StaticString, first: inout Bool) {
        if !first { raw(UInt8(ascii: ",")) }
        first = false
        raw(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    @inline(__always) mutating func key(_ name: String, first: inout Bool) {
        if !first { raw(UInt8(ascii: ",")) }
        first = false
        string(name)
        raw(UInt8(ascii: ":"))
    }

    mutating func array<T: JSONWritable>(_ items: [T]) throws {
        raw(UInt8(ascii: "["))
        for i in items.indices {
            if i > 0 { raw(UInt8(ascii: ",")) }
            try items[i].write(to: &self)
        }
        raw(UInt8(ascii: "]"))
    }

    mutating func stringArray(_ items: [String]) {
        raw(UInt8(ascii: "["))
        items.withUnsafeBufferPointer { items in
            for i in items.indices {
                if i > 0 { raw(UInt8(ascii: ",")) }
                string(items[i])
            }
        }
        raw(UInt8(ascii: "]"))
    }

    /// Members in the order of their names, so that the same value is the same bytes in every process
    /// (a dictionary's own order follows a hash seed drawn anew by each).
    mutating func object(_ members: [String: JSONValue]) throws {
        raw(UInt8(ascii: "{"))
        var first = true
        for (k, v) in members.sorted(by: { $0.key < $1.key }) {
            key(k, first: &first)
            try v.write(to: &self)
        }
        raw(UInt8(ascii: "}"))
    }
}

/// A value the fast writer writes exactly as its Encodable conformance does.
public protocol JSONWritable {
    func write(to writer: inout JSONWriter) throws
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(to writer: inout JSONWriter) throws { try writer.array(self) }
}

extension JSONValue: JSONWritable {
    public func write(to w: inout JSONWriter) throws {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let n): try w.double(n)
        case .string(let s): w.string(s)
        case .array(let a): try w.array(a)
        case .object(let o): try w.object(o)
        }
    }
}

/// Whether any of the eight bytes is a control character, `"` or `\`: the bytes a JSON string cannot hold as
/// they are. May say yes when none is (the bytes are then looked at one by one), never no when one is.
@inline(__always) func hasQuoteBackslashOrControl(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & high != 0 }
    let below0x20 = (w &- ones &* 0x20) & ~w & high != 0
    return below0x20 || hasZeroByte(w ^ (ones &* 0x22)) || hasZeroByte(w ^ (ones &* 0x5C))
}
