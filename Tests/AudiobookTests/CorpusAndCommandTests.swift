import Foundation
@testable import Host
import ShelfPlayback
import TestSupport
import XCTest

/// Every manifest of ../shared/corpus/audiobook is opened (reading order, durations, TOC) or
/// refused with a reason; the commands and the conformance suite run on the built shelf.
final class CorpusTests: XCTestCase {
    /// Files refused, with a word of the reason each must give.
    static let refused: [String: String] = [
        "rwpm/best-new-horror.audiobook-manifest.json": "LCP",  // LCP-encrypted tracks
        "rwpm/igen-lcp.json": "LCP",
        "rwpm/lcp-demon.json": "LCP",
        "rwpm/lcp-i-strahd.json": "LCP",
        "rwpm/lcp-quicksilver.json": "LCP",
        "rwpm/master-of-evil-lcp.json": "LCP",
        "rwpm/findaway.json": "Findaway",  // Findaway DRM, href null
        "rwpm/findaway-20201015.json": "Findaway",
        "rwpm/findaway-leading-0.json": "Findaway",
        "rwpm/feedbooks-jwks-0.json": "Key Set",  // not manifests at all
        "rwpm/feedbooks-jwks-1.json": "no installed plugin",
        "rwpm/lcp-license-status.json": "no installed plugin",
        "rwpm/lcp-license-status-revoked.json": "no installed plugin",
        "rwpm/error-minimal.json": "no installed plugin",  // only @context
        "rwpm/nypl-rwpm-spec-example.json": "no installed plugin",  // an eBook (text/html) webpub
        "rwpm/readium-webpub.json": "no installed plugin",  // an eBook webpub
        "rwpm/readium-w3c-wpub.json": "no installed plugin",  // broken JSON
        "w3c/lpf/index.json": "no installed plugin",  // a test index
        "w3c/processing-tests/index.json": "not an audiobook",  // a test index
        "w3c/processing-tests/a5.6.01.jsonld": "not an audiobook"  // reading order of HTML
    ]

    func testEveryCorpusManifestOpensOrIsRefusedWithAReason() throws {
        guard let root = Corpus.root?.appendingPathComponent("audiobook"),
            FileManager.default.fileExists(atPath: root.path)
        else {
            throw XCTSkip("../shared/corpus/audiobook is absent: the corpus test needs the shared corpus")
        }
        let files = FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }
            .filter { !$0.hasSuffix(".md") && !$0.hasSuffix("/") }
            .filter {
                var d: ObjCBool = false;
                return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &d)
                    && !d.boolValue
            }
            .sorted()
        XCTAssertGreaterThan(files.count, 50)
        var opened = 0
        for name in files {
            let path = root.appendingPathComponent(name).path
            do {
                let book = try AudioBook(path: path, router: TestHost.shelf.router)
                XCTAssertNil(Self.refused[name], "\(name) should have been refused")
                XCTAssertFalse(book.tracks.isEmpty, name)
                XCTAssertFalse(book.manifest.toc?.isEmpty ?? true, "\(name) has a TOC")
                XCTAssertTrue(
                    book.manifest.readingOrder.allSatisfy {
                        ($0.type ?? "").hasPrefix("audio/") || $0.type == "video/mp4"
                    }, name)
                let timed = book.tracks.filter { ($0.declaredDuration ?? 0) > 0 }.count
                XCTAssertTrue(
                    timed == book.tracks.count || name.contains("w3c") || name.hasSuffix(".lpf")
                        || name.hasSuffix(".audiobook"),
                    "\(name): \(timed) of \(book.tracks.count) tracks have durations")
                opened += 1
            } catch let error as ShelfError {
                guard let word = Self.refused[name] else {
                    XCTFail("\(name) was refused but should open: \(error.description)")
                    continue
                }
                XCTAssertTrue(error.description.contains(word), "\(name): \"\(error.description)\" should say \(word)")
            }
        }
        XCTAssertEqual(opened, files.count - Self.refused.count)
    }

    func testCorpusVariants() throws {
        guard let root = Corpus.root?.appendingPathComponent("audiobook/rwpm"),
            FileManager.default.fileExists(atPath: root.path)
        else {
            throw XCTSkip("../shared/corpus/audiobook is absent")
        }
        // Old `spine` with audio/mp4.
        let spine = try AudioBook(
            path: root.appendingPathComponent("feedbooks-spine-1.json").path, router: TestHost.shelf.router)
        XCTAssertGreaterThan(spine.tracks.count, 1)
        XCTAssertTrue(spine.tracks.allSatisfy { $0.isRemote })
        // Null titles keep the tracks.
        let nulls = try AudioBook(
            path: root.appendingPathComponent("null-titles.json").path, router: TestHost.shelf.router)
        XCTAssertEqual(nulls.tracks.map(\.declaredDuration), [100, 200])
        // Nested TOC with #t= fragments.
        let flat = try AudioBook(
            path: root.appendingPathComponent("flatland-toc.audiobook-manifest.json").path,
            router: TestHost.shelf.router)
        XCTAssertTrue((flat.manifest.toc ?? []).contains { $0.href.contains("#t=") })
    }
}

final class CommandTests: XCTestCase {
    var process: ShelfProcess!
    override func setUpWithError() throws { process = try ShelfProcess() }
    override func tearDown() { process?.cleanUp() }

    var pluginPath: String { ShelfProcess.buildDirectory.appendingPathComponent("libshelf-audiobook.so").path }

    func testConformance() throws {
        let manifest = try AudioFixtures.mp3Book()
        let (m4b, _) = try AudioFixtures.m4b()
        let r = try process.run([
            "conformance", pluginPath, "--sample", manifest.path, "--sample", m4b.path,
            "--sample", try AudioFixtures.packagedBook().path
        ])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    func testPlayTocAndResumeFromTheCommandLine() throws {
        let url = try AudioFixtures.mp3Book()
        let toc = try process.run(["toc", url.path])
        XCTAssertEqual(toc.status, 0, toc.stderr)
        XCTAssertTrue(toc.stdout.contains("Two, later, at 0:"), toc.stdout)
        let out = process.home.appendingPathComponent("out.wav")
        let play = try process.run(["play", url.path, "--from", "2", "--sleep", "0.05", "--out", out.path, "--json"])
        XCTAssertEqual(play.status, 0, play.stderr)
        let json = try XCTUnwrap(try play.json() as? [String: Any])
        XCTAssertEqual(json["stoppedBecause"] as? String, "the sleep timer")
        let wav = try AudioFixtures.readWAV(out)
        XCTAssertEqual(wav.samples.count, 3 * 44100 / 1)  // 0.05 minutes = 3 seconds of sound
        // The next play without --from resumes at 5 seconds; it starts at once, well within the 5 s after which the
        // 2 seconds before the stop would be replayed, so 0.6 s on it is at 5.6 (issue 34's resume rule).
        let again = try process.run(["play", url.path, "--null", "--sleep", "0.01", "--json"])
        let state = try XCTUnwrap((try again.json() as? [String: Any])?["state"] as? [String: Any])
        XCTAssertEqual(state["position"] as? Double ?? 0, 5.6, accuracy: 0.01)
        XCTAssertEqual((try again.json() as? [String: Any])?["started"] as? String, "resuming at 0:05")
        // Bad options are usage errors.
        XCTAssertEqual(try process.run(["play", url.path, "--speed", "4", "--null"]).status, 64)
        XCTAssertEqual(try process.run(["play", url.path, "--chapter", "9", "--null"]).status, 64)
    }

    func testNoSoundDeviceSuggestsOut() throws {
        let url = try AudioFixtures.mp3Book()
        var env = process.environment
        env["PULSE_SERVER"] = "unix:/nonexistent"
        var p = process!
        p.environment = env
        let r = try p.run(["play", url.path, "--sleep", "0.01"])
        if r.status == 0 { throw XCTSkip("this machine has a working sound device") }
        XCTAssertTrue(r.stderr.contains("--out"), r.stderr)
    }

    func testListenStartsPausedAndQuits() throws {
        let url = try AudioFixtures.mp3Book()
        let r = try process.run(["listen", url.path, "--null"], stdin: Data("tq".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Paused"), r.stdout)
        XCTAssertTrue(r.stdout.contains("chapter 1, One"), r.stdout)
    }
}

/// Remote manifests over the loopback server: parts download several at once, a dropped
/// connection resumes with Range, a 403 on a part makes the manifest be fetched again.
final class RemoteTests: XCTestCase {
    func testFetchResumesAndRefreshesAnExpiredManifest() throws {
        let manifest = try AudioFixtures.mp3Book()
        let dir = manifest.deletingLastPathComponent()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        final class Count: @unchecked Sendable { var n = 0; let lock = NSLock() }
        let fetches = Count()
        server.route("GET", "/book/manifest.json") { _ in
            fetches.lock.lock(); fetches.n += 1; let token = fetches.n == 1 ? "old" : "new"; fetches.lock.unlock()
            let order = (1...3).map {
                ["href": "/signed/track\($0).mp3?token=\(token)", "type": "audio/mpeg", "title": "Track \($0)"]
            }
            let body = try! JSONSerialization.data(withJSONObject: [
                "metadata": ["@type": "http://schema.org/Audiobook", "title": "Remote Openings"], "readingOrder": order
            ])
            return .data(body, contentType: "application/audiobook+json")
        }
        let dropped = Count()
        for i in 1...3 {
            let data = try Data(contentsOf: dir.appendingPathComponent("track\(i).mp3"))
            server.route("GET", "/signed/track\(i).mp3") { request in
                guard request.query == "token=new" else { return .status(403) }
                // Track 2: the first answer drops the connection half way.
                if i == 2 {
                    dropped.lock.lock(); dropped.n += 1; let first = dropped.n == 1; dropped.lock.unlock()
                    if first {
                        return .content(data, for: request, contentType: "audio/mpeg").with(
                            fault: .truncateBody(after: data.count / 2))
                    }
                }
                return .content(data, for: request, contentType: "audio/mpeg")
            }
        }
        let process = try ShelfProcess()
        defer { process.cleanUp() }
        let url = server.url("/book/manifest.json").absoluteString
        let r = try process.run(["fetch", url, "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let report = try XCTUnwrap(try r.json() as? [String: Any])
        let parts = try XCTUnwrap(report["parts"] as? [[String: Any]])
        XCTAssertEqual(parts.map { $0["state"] as? String }, ["complete", "complete", "complete"])
        for (i, p) in parts.enumerated() {
            let got = try Data(contentsOf: URL(fileURLWithPath: p["path"] as! String))
            XCTAssertEqual(
                got, try Data(contentsOf: dir.appendingPathComponent("track\(i + 1).mp3")), "part \(i + 1) is whole")
        }
        XCTAssertGreaterThanOrEqual(
            server.requests(to: "/book/manifest.json").count, 2, "the manifest was fetched again after a 403")
        let resumed = server.requests(to: "/signed/track2.mp3").filter { $0.header("Range") != nil }
        XCTAssertFalse(resumed.isEmpty, "the dropped part resumed with Range")
        // `shelf downloads` shows every part complete.
        let d = try process.run(["downloads", "--json"])
        let items = try XCTUnwrap(try d.json() as? [[String: Any]])
        XCTAssertEqual(
            (items.first?["parts"] as? [[String: Any]])?.map { $0["state"] as? String },
            ["complete", "complete", "complete"])
        // And it plays from the cache, the manifest fetched afresh.
        let play = try process.run(["play", url, "--null", "--json"])
        XCTAssertEqual(play.status, 0, play.stderr)
        let state = try XCTUnwrap((try play.json() as? [String: Any])?["state"] as? [String: Any])
        XCTAssertEqual(state["ended"] as? Bool, true)
    }
}
