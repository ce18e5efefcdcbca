import Foundation
import LibZip
import Synchronization
import XCTest

/// The zip reader (libzip under shelf's limits) against Python's `zipfile` (an independent
/// implementation, here only as the oracle) and against archives written byte by byte to be odd,
/// damaged or hostile.
final class ZipReaderTests: XCTestCase {
    var dir: FixtureDir!
    override func setUpWithError() throws { dir = try FixtureDir() }
    override func tearDown() { dir = nil }

    /// Every file entry of an archive as Python's zipfile reads it, in directory order: its name, size
    /// and CRC-32 of the bytes it inflates to (computed by Python, not read from the directory).
    func pythonEntries(_ path: String) throws -> [(name: String, size: Int, crc: UInt32)] {
        let script = """
            import json, sys, zipfile, zlib
            out = []
            with zipfile.ZipFile(sys.argv[1]) as z:
                for i in z.infolist():
                    name = i.filename
                    if not i.flag_bits & 0x800:  # as zip tools guess: UTF-8 when it is, else code page 437
                        try: name = i.orig_filename.encode("cp437").decode("utf-8")
                        except UnicodeError: pass
                    if name.endswith("/"): continue
                    data = z.read(i)
                    out.append([name, len(data), zlib.crc32(data)])
            print(json.dumps(out))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, path]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, "Python's zipfile cannot read \(path)")
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [[Any]])
        return try rows.map { row in
            (try XCTUnwrap(row[0] as? String), try XCTUnwrap(row[1] as? Int), UInt32(try XCTUnwrap(row[2] as? Int)))
        }
    }

    func assertAgreesWithPython(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let ours = try ZipReader(path: path)
        let theirs = try pythonEntries(path)
        XCTAssertEqual(ours.entries.map(\.name), theirs.map(\.name), path, file: file, line: line)
        for (entry, expected) in zip(ours.entries, theirs) {
            let data = try ours.read(entry)
            XCTAssertEqual(data.count, expected.size, "\(path): \(entry.name)", file: file, line: line)
            XCTAssertEqual(RawZip.crc32(data), expected.crc, "\(path): \(entry.name)", file: file, line: line)
        }
    }

    func testAgreesWithPythonOnEveryEntryOfArchivesLibzipWrote() throws {
        var big = Data(count: 3 << 20)  // several inflate rounds, compressible but not trivially
        for i in stride(from: 0, to: big.count, by: 7) { big[i] = UInt8(truncatingIfNeeded: i / 7 % 251) }
        let path = try dir.zip(
            "mixed.zip",
            [
                ("mimetype", Data("application/epub+zip".utf8)), ("empty.txt", Data()),
                ("OEBPS/big.bin", big), ("OEBPS/é ü/名前.xhtml", Data("<p>non-ASCII names</p>".utf8)),
                ("stored.bin", Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
            ], stored: ["mimetype", "stored.bin"])
        try assertAgreesWithPython(path)
    }

    func testAgreesWithPythonOnEveryEntryOfTheCorpus() throws {
        let books =
            (try? FileManager.default.contentsOfDirectory(atPath: CorpusTests.corpusDirectory.path))?
            .filter { $0.hasSuffix(".epub") }.sorted() ?? []
        if books.isEmpty {
            throw XCTSkip("corpus not found at \(CorpusTests.corpusDirectory.path) (../shared/corpus is absent)")
        }
        for book in books { try assertAgreesWithPython(CorpusTests.corpusDirectory.appendingPathComponent(book).path) }
    }

    func failure(_ body: () throws -> Void) -> ZipError? {
        do { try body() } catch let e as ZipError { return e } catch { XCTFail("not a ZipError: \(error)") }
        return nil
    }

    func testCRCMismatchIsDamage() throws {
        let z = RawZip(entries: [.init(name: "a.txt", data: Data("hello".utf8), crc: 1234)])
        let reader = try ZipReader(path: try dir.write("crc.zip", z.bytes()))
        let f = failure { _ = try reader.read("a.txt") }
        XCTAssertEqual(f?.kind, .badData)
        XCTAssertTrue(f?.message.contains("CRC mismatch") ?? false, f?.message ?? "")
    }

    /// Patches the directory's uncompressed size of the only deflated entry of a libzip archive.
    func archiveClaiming(size: UInt32) throws -> String {
        let text = Data(String(repeating: "the same words again and again ", count: 400).utf8)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try dir.zip("one.zip", [("t.txt", text)])))
        let cd = try XCTUnwrap(bytes.range(of: Data([0x50, 0x4b, 0x01, 0x02]))).lowerBound
        for i in 0..<4 { bytes[cd + 24 + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) }
        return try dir.write("claims-\(size).zip", bytes)
    }

    func testAnEntryShorterOrLongerThanItsDirectorySaysIsDamage() throws {
        let longer = try ZipReader(path: try archiveClaiming(size: 100_000))
        let f1 = failure { _ = try longer.read("t.txt") }
        XCTAssertEqual(f1?.kind, .badData)
        XCTAssertTrue(f1?.message.contains("not the 100000 its directory says") ?? false, f1?.message ?? "")
        let shorter = try ZipReader(path: try archiveClaiming(size: 100))
        let f2 = failure { _ = try shorter.read("t.txt") }
        XCTAssertEqual(f2?.kind, .badData)
        XCTAssertTrue(f2?.message.contains("inflates past its declared size") ?? false, f2?.message ?? "")
        // A prefix of an entry is what was asked for, whatever the rest holds.
        XCTAssertEqual(try shorter.read(shorter.entry(named: "t.txt")!, limit: 10), Data("the same w".utf8))
    }

    func testStoredEntryWhoseSizesDifferIsDamage() throws {
        let z = RawZip(entries: [.init(name: "a.txt", data: Data("hello".utf8), declaredSize: 9)])
        let reader = try ZipReader(path: try dir.write("sizes.zip", z.bytes()))
        XCTAssertTrue(failure { _ = try reader.read("a.txt") }?.message.contains("two sizes differ") ?? false)
    }

    func testZip64DirectoryIsRead() throws {
        let z = RawZip(
            entries: [
                .init(name: "a.txt", data: Data("first".utf8)), .init(name: "b/c.txt", data: Data("second".utf8))
            ], zip64: true)
        let reader = try ZipReader(path: try dir.write("z64.zip", z.bytes()))
        XCTAssertEqual(reader.entries.map(\.name), ["a.txt", "b/c.txt"])
        XCTAssertEqual(try reader.read("b/c.txt"), Data("second".utf8))
        XCTAssertEqual(try reader.read("a.txt"), Data("first".utf8))
    }

    func testACommentHoldingTheEndSignatureDoesNotFoolTheReader() throws {
        var z = RawZip(entries: [.init(name: "a.txt", data: Data("text".utf8))])
        z.comment = Data([0x50, 0x4b, 0x05, 0x06] + [UInt8](repeating: 0xEE, count: 18) + Array("a comment".utf8))
        let reader = try ZipReader(path: try dir.write("comment.zip", z.bytes()))
        XCTAssertEqual(try reader.read("a.txt"), Data("text".utf8))
    }

    func testManyFalseEndRecordsInTheCommentAreSkippedCheaply() throws {
        // Each false record points at a directory offset past the file: rejected without reading
        // anything, so none of them uses up the few whole-directory reads a file is allowed.
        var fake = Data([0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 1, 0, 1, 0, 46, 0, 0, 0])
        fake += Data([0xF0, 0xFF, 0xFF, 0x7F, 0, 0])
        var z = RawZip(entries: [.init(name: "a.txt", data: Data("text".utf8))])
        z.comment = Data((0..<40).flatMap { _ in fake })
        let reader = try ZipReader(path: try dir.write("fakes.zip", z.bytes()))
        XCTAssertEqual(try reader.read("a.txt"), Data("text".utf8))
    }

    func testNamesThatAreNotUTF8AreReadAsCodePage437() throws {
        let z = RawZip(entries: [
            .init(name: "", data: Data("x".utf8), rawName: Data([0x82, 0x74, 0x82, 0x2E, 0x74, 0x78, 0x74]), flags: 0)
        ])
        let reader = try ZipReader(path: try dir.write("cp437.zip", z.bytes()))
        XCTAssertEqual(reader.entries.map(\.name), ["été.txt"])
    }

    /// A local header that is not there (libzip reads its name and extra lengths from whatever lies at the
    /// directory's offset): that entry fails as damaged, never as other bytes; the others read.
    func testLocalHeaderOutOfPlaceIsDamageForThatEntryOnly() throws {
        var bytes = RawZip(entries: [
            .init(name: "a.txt", data: Data("aaaa".utf8)), .init(name: "b.txt", data: Data("bbbb".utf8))
        ]).bytes()
        for i in 0..<30 { bytes[i] = 0x51 }  // the first local header
        let reader = try ZipReader(path: try dir.write("local.zip", bytes))
        let f = failure { _ = try reader.read("a.txt") }
        XCTAssertEqual(f?.kind, .badData, f?.message ?? "")
        XCTAssertEqual(try reader.read("b.txt"), Data("bbbb".utf8))
    }

    func testDamagedDeflateDataIsAnErrorNotGarbage() throws {
        let text = Data((0..<20_000).map { _ in UInt8.random(in: 0x61...0x7A) })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try dir.zip("d.zip", [("t.txt", text)])))
        for i in 100..<140 { bytes[i] ^= 0x5A }
        let reader = try ZipReader(path: try dir.write("damaged.zip", bytes))
        XCTAssertEqual(failure { _ = try reader.read("t.txt") }?.kind, .badData)
    }

    func testStreamHandsOverTheWholeEntry() throws {
        let text = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 97) })
        let reader = try ZipReader(path: try dir.zip("s.zip", [("t.bin", text)]))
        var streamed = Data()
        var pieces = 0
        try reader.stream(try XCTUnwrap(reader.entry(named: "t.bin"))) {
            streamed.append(contentsOf: $0); pieces += 1
        }
        XCTAssertEqual(streamed, text)
        XCTAssertGreaterThan(pieces, 1)
    }

    func testNamesOnlyLimitsLetASnifferSeeWhatAPluginWouldRefuse() throws {
        let z = RawZip(entries: [
            .init(name: "META-INF/container.xml", data: Data("a".utf8)),
            .init(name: "META-INF/container.xml", data: Data("b".utf8))
        ])
        let path = try dir.write("dup.zip", z.bytes())
        XCTAssertNotNil(failure { _ = try ZipReader(path: path) })
        XCTAssertTrue(try ZipReader(path: path, limits: .namesOnly).contains("META-INF/container.xml"))
    }

    func testRecordsWrittenByteByByteAgreeWithPython() throws {
        let z64 = RawZip(
            entries: [
                .init(name: "a.txt", data: Data("first".utf8)), .init(name: "b/c.txt", data: Data("second".utf8))
            ], zip64: true)
        try assertAgreesWithPython(try dir.write("z64.zip", z64.bytes()))
        let cp437 = RawZip(entries: [
            .init(name: "", data: Data("x".utf8), rawName: Data([0x82, 0x74, 0x82, 0x2E, 0x74, 0x78, 0x74]), flags: 0)
        ])
        try assertAgreesWithPython(try dir.write("cp437.zip", cp437.bytes()))
    }

    /// libzip's archive is not safe for concurrent use: one reader shared by threads must still hand
    /// each of them every entry whole and right (the reader's lock makes the reads take turns).
    func testOneReaderReadFromManyThreadsAtOnceGivesEveryEntryRight() throws {
        var big = Data(count: 600_000)
        for i in stride(from: 0, to: big.count, by: 5) { big[i] = UInt8(truncatingIfNeeded: i / 5 % 241) }
        let entries = (0..<12).map { i in ("e\(i).bin", big.prefix(50_000 * (i + 1)) + Data("entry \(i)".utf8)) }
        let reader = try ZipReader(path: try dir.zip("threads.zip", entries, stored: ["e3.bin", "e7.bin"]))
        let expected = Dictionary(uniqueKeysWithValues: entries.map { ($0.0, RawZip.crc32($0.1)) })
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<6 {
                for (name, _) in entries.shuffled() {
                    do {
                        let data = round % 2 == 0 ? try reader.read(name) : try streamed(reader, name)
                        if RawZip.crc32(data) != expected[name] {
                            failures.withLock { $0.append("\(thread): \(name) differs") }
                        }
                    } catch {
                        failures.withLock { $0.append("\(thread): \(name): \(error)") }
                    }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }

    private func streamed(_ reader: ZipReader, _ name: String) throws -> Data {
        var data = Data()
        try reader.stream(try XCTUnwrap(reader.entry(named: name))) { data.append(contentsOf: $0) }
        return data
    }

    func testCaseInsensitiveLookUpFindsTheFirstOfAName() throws {
        let z = RawZip(entries: [
            .init(name: "OEBPS/Text/Ch1.xhtml", data: Data("one".utf8)),
            .init(name: "OEBPS/text/ch1.XHTML", data: Data("two".utf8))
        ])
        let reader = try ZipReader(path: try dir.write("case.zip", z.bytes()))
        XCTAssertEqual(reader.entry(caseInsensitive: "oebps/TEXT/ch1.xhtml")?.name, "OEBPS/Text/Ch1.xhtml")
        XCTAssertEqual(
            reader.entry(caseInsensitive: "OEBPS/text/ch1.XHTML")?.name, "OEBPS/text/ch1.XHTML", "an exact name first")
        XCTAssertNil(reader.entry(caseInsensitive: "OEBPS/Text/Ch2.xhtml"))
    }

    func testNotAZipAndMissingFilesAreNamed() throws {
        XCTAssertEqual(
            failure { _ = try ZipReader(path: try dir.write("text.zip", Data(repeating: 0x41, count: 5000))) }?.kind,
            .badData)
        XCTAssertEqual(failure { _ = try ZipReader(path: dir.path("absent.zip")) }?.kind, .notFound)
        XCTAssertEqual(failure { _ = try ZipReader(path: dir.url.path) }?.kind, .io)
    }
}
