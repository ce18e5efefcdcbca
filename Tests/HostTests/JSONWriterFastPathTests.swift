import Foundation
@testable import Host
@testable import ShelfPlugins
import Readium
import XCTest

/// The shortcuts of the JSON writer (Sources/Readium/JSONWriter.swift) against the plain ways they stand for:
/// eight bytes checked at a time against one, digits by hand against `String(n)`, the buffer handed over
/// against copied out.
final class JSONWriterFastPathTests: XCTestCase {
    /// The escaping rules, one byte at a time.
    func plainlyQuoted(_ s: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in s.utf8 {
            switch b {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
            default: out.append(b)
            }
        }
        out.append(0x22)
        return out
    }

    func written(_ s: String) -> [UInt8] {
        var w = JSONWriter(capacity: 1)
        w.string(s)
        return w.bytes
    }

    func testEveryByteThatNeedsEscapingIsFoundWhereverItStands() {
        // Each special byte (and a few that are not special but lie close to the ones that are) at every
        // offset of strings of up to 40 bytes: before, inside and after the eight-byte blocks.
        let probes: [UInt8] = Array(0x00...0x21) + [0x22, 0x23, 0x2F, 0x5B, 0x5C, 0x5D, 0x7F, 0xDC, 0xA2]
        for length in 1...40 {
            for offset in 0..<length {
                for probe in probes {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = probe
                    // A lone 0xDC or 0xA2 is no UTF-8; String repairs it, and both sides see the repaired text.
                    let s = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(written(s), plainlyQuoted(s), "byte \(probe) at \(offset) of \(length)")
                }
            }
        }
    }

    func testRandomTextIsWrittenAsByteByByteEscaping() {
        var rng = SplitMix(seed: 7)
        let alphabet: [Character] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "日", "😀", "\u{2028}"
        ]
        for _ in 0..<2000 {
            let n = Int(rng.next() % 70)
            let s = String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            XCTAssertEqual(written(s), plainlyQuoted(s), s.debugDescription)
        }
        // Strings in every storage: small (inline), large (native), a substring made into a string, and
        // one that Foundation made.
        for s in [
            "", "a", "short \"one\"", String(repeating: "long\\", count: 200),
            String(String(repeating: "x\u{0}", count: 50).dropFirst(3)),
            NSString(string: "bridged \t text").description
        ] {
            XCTAssertEqual(written(s), plainlyQuoted(s), s.debugDescription)
        }
    }

    func testIntegersAreWrittenAsStringDoes() throws {
        var values = [
            0, 1, 9, 10, -1, -9, -10, 99, 100, 123456789, -987654321, Int.max, Int.min, Int.max - 1, Int.min + 1
        ]
        var rng = SplitMix(seed: 11)
        for _ in 0..<1000 { values.append(Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 63)) }
        for n in values {
            var w = JSONWriter(capacity: 1)
            w.int(n)
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), String(n))
        }
        // Doubles that are whole numbers go through the same digits.
        for d in [0.0, -0.0, 1, -1, 1e14, -999_999_999_999_999, 0.5, -2.25, 1e-7, 1e15, 1e300] {
            var w = JSONWriter()
            try w.double(d)
            XCTAssertEqual(try JSONReader.parse(Data(w.bytes)), .number(d == 0 ? 0 : d), "\(d)")
        }
    }

    func testTheBufferHandedOverHoldsWhatWasWritten() throws {
        // Grown many times over from the smallest buffer, then handed to Data without a copy.
        var w = JSONWriter(capacity: 1)
        var expected: [UInt8] = []
        for i in 0..<5000 {
            let s = "item \(i) \u{1}"
            w.string(s)
            expected += plainlyQuoted(s)
        }
        XCTAssertEqual(w.bytes, expected)
        let data = w.data()
        XCTAssertEqual([UInt8](data), expected)
        XCTAssertEqual(JSONWriter().data(), Data(), "nothing written, nothing handed over")
    }
}
