import EPUBCore
import Foundation
import Readium

// The Readium shapes' JSON on the paths a patron waits on, read and written by Readium's reader and writer
// (ShapesJSON.swift) against Foundation's JSONDecoder/JSONEncoder through member-by-member Codable
// conformances (CodablePeer.swift), in the same run: opening a
// book (the plugin writes its manifest, the host reads it), a page turn (a locator each way), saving a
// position (a locator written, read back), and the positions list the host keeps. The documents are the
// real ones the EPUB plugin makes for each book given. Release build; per workload, rounds of many calls
// with the two sides alternating round by round, and the median round reported. Prints figures; asserts
// nothing (a benchmark, not a test).

let books = Array(CommandLine.arguments.dropFirst())
guard !books.isEmpty else {
    FileHandle.standardError.write(Data("usage: shelf-json-bench BOOK.epub...\n".utf8))
    exit(64)
}
let rounds = 21

/// Nanoseconds per call of `body`: the median of `rounds` rounds of `n` calls.
func medianPerCall(_ rounds: [Double]) -> Double { rounds.sorted()[rounds.count / 2] }

func round(_ n: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<n { try body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
}

/// Both sides of one workload, alternating round by round so that both see the same machine.
func compare(_ name: String, bytes: Int, calls: Int, readium: () throws -> Void, foundation: () throws -> Void) rethrows {
    for _ in 0..<max(2, calls / 10) { try readium(); try foundation() }  // warm up
    var a: [Double] = [], b: [Double] = []
    for _ in 0..<rounds {
        a.append(try round(calls, readium))
        b.append(try round(calls, foundation))
    }
    let r = medianPerCall(a), f = medianPerCall(b)
    let verdict = f <= r * 1.10 ? "within 10%" : "not within 10%"
    print(name.padding(toLength: 34, withPad: " ", startingAt: 0)
          + String(format: "%8d B  Readium %10.2f µs  Foundation %10.2f µs  %6.2fx  %@",
                   bytes, r / 1000, f / 1000, f / r, verdict))
}

let encoder: JSONEncoder = {
    let e = JSONEncoder()
    e.outputFormatting = [.withoutEscapingSlashes]  // as ReadiumJSON.wire wrote for the shapes before FastJSON
    return e
}()

func fast<T: JSONWritable>(_ value: T) throws -> Data {
    var writer = JSONWriter(capacity: 4096)
    try value.write(to: &writer)
    return writer.data()
}

/// The same value whichever side read it, or the figures compare different work.
func check<T: Equatable>(_ what: String, _ a: T, _ b: T) {
    if a != b { print("warning: \(what): the two readers disagree; the figures compare different work") }
}

print("shelf-json-bench: median of \(rounds) rounds, Readium's reader and writer against JSONDecoder/JSONEncoder")
do {
    for book in books {
        let publication = try EPUBPublication(path: book)
        let manifest = try publication.manifest()
        let positions = try publication.positions()
        let located = try publication.locate(positions[positions.count / 2])
        // A saved position as the reader keeps it: a place with the words around it.
        var saved = located
        saved.text = Locator.Text(before: "the words before the place ", highlight: "the place",
                                  after: " and the words after it, as a bookmark quotes them")

        let manifestJSON = try fast(manifest)
        let positionsJSON = try fast(positions)
        let locatorJSON = try fast(located)
        let savedJSON = try fast(saved)
        // The peer reads what Readium reads: the same values, compared as sorted JSON.
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        check("manifest", try sorted.encode(JSONReader.manifest(manifestJSON)),
              try sorted.encode(JSONDecoder().decode(PeerManifest.self, from: manifestJSON)))
        check("positions", try sorted.encode(JSONReader.locators(positionsJSON)),
              try sorted.encode(JSONDecoder().decode([PeerLocator].self, from: positionsJSON)))
        check("locator", try sorted.encode(JSONReader.locator(savedJSON)),
              try sorted.encode(JSONDecoder().decode(PeerLocator.self, from: savedJSON)))
        let peerManifest = PeerManifest(manifest), peerPositions = positions.map(PeerLocator.init)
        let peerLocated = PeerLocator(located), peerSaved = PeerLocator(saved)

        print("\n\(URL(fileURLWithPath: book).lastPathComponent): \(manifest.readingOrder.count) reading-order items, "
              + "\(positions.count) positions")
        // Opening a book: the plugin writes the manifest, the host reads it.
        try compare("open: manifest read", bytes: manifestJSON.count, calls: 5,
                readium: { _ = try JSONReader.manifest(manifestJSON) },
                foundation: { _ = try JSONDecoder().decode(PeerManifest.self, from: manifestJSON) })
        try compare("open: manifest written", bytes: manifestJSON.count, calls: 5,
                readium: { _ = try fast(manifest) },
                foundation: { _ = try encoder.encode(peerManifest) })
        // A page turn: the host sends a locator, the plugin reads it and answers with one.
        try compare("page turn: locator read", bytes: locatorJSON.count, calls: 500,
                readium: { _ = try JSONReader.locator(locatorJSON) },
                foundation: { _ = try JSONDecoder().decode(PeerLocator.self, from: locatorJSON) })
        try compare("page turn: locator written", bytes: locatorJSON.count, calls: 500,
                readium: { _ = try fast(located) },
                foundation: { _ = try encoder.encode(peerLocated) })
        // Saving a position (a bookmark with its quote), and reading it back.
        try compare("save: locator with text written", bytes: savedJSON.count, calls: 500,
                readium: { _ = try fast(saved) },
                foundation: { _ = try encoder.encode(peerSaved) })
        try compare("save: locator with text read", bytes: savedJSON.count, calls: 500,
                readium: { _ = try JSONReader.locator(savedJSON) },
                foundation: { _ = try JSONDecoder().decode(PeerLocator.self, from: savedJSON) })
        // The positions list: written by the plugin, read by the host when a book is first opened.
        try compare("positions read", bytes: positionsJSON.count, calls: 2,
                readium: { _ = try JSONReader.locators(positionsJSON) },
                foundation: { _ = try JSONDecoder().decode([PeerLocator].self, from: positionsJSON) })
        try compare("positions written", bytes: positionsJSON.count, calls: 2,
                readium: { _ = try fast(positions) },
                foundation: { _ = try encoder.encode(peerPositions) })
    }
} catch {
    FileHandle.standardError.write(Data("shelf-json-bench: \(error)\n".utf8))
    exit(1)
}
