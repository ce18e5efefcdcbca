import Foundation
import TestSupport
import XCTest
@testable import Host
@testable import ShelfCore

/// The real client against the real loopback server: every feature, and the ways servers fail.
final class HTTPClientTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private var folder: URL!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Short waits everywhere, so the suite stays fast while the logic stays the same.
    private func client(_ adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.retry = .init(maxAttempts: 4, initialDelay: 0.01, maxDelay: 2, maxTotalWait: 5)
        configuration.requestTimeout = 10
        configuration.lowSpeedTime = 5
        adjust(&configuration)
        return HTTPClient(configuration: configuration)
    }

    private func get(_ path: String) -> HTTPRequest { HTTPRequest(.get, server.url(path)) }

    private func payload(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) })
    }

    private func httpError(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> HTTPError? {
        do {
            _ = try body()
            XCTFail("expected an HTTPError", file: file, line: line)
        } catch let error as HTTPError {
            return error
        } catch {
            XCTFail("expected an HTTPError, got \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: - Requests

    func testGetReturnsStatusHeadersBodyAndSendsUserAgentAndHeaders() throws {
        server.route("GET", "/feed", .text("<feed/>", contentType: "application/atom+xml", headers: ["X-Thing": "1"]))
        var request = get("/feed?page=2")
        request.headers["Accept"] = "application/atom+xml"
        let response = try client().send(request)

        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "<feed/>")
        XCTAssertEqual(response.headers["content-type"], "application/atom+xml")
        XCTAssertEqual(response.headers["X-THING"], "1")
        XCTAssertEqual(response.attempts, 1)
        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.header("User-Agent"), "shelf/0.1")
        XCTAssertEqual(seen.header("accept"), "application/atom+xml")
        XCTAssertEqual(seen.queryItems["page"], "2")
    }

    func testMethodsAndBodiesReachTheServer() throws {
        for method in ["PUT", "POST", "DELETE", "HEAD"] {
            server.route(method, "/shelf") { request in .text("\(request.method):\(request.text)") }
        }
        let http = client()
        let put = try http.send(
            HTTPRequest(
                .put, server.url("/shelf"), headers: ["Content-Type": "application/json"],
                body: Data("{\"read\":true}".utf8)))
        XCTAssertEqual(put.text, "PUT:{\"read\":true}")
        XCTAssertEqual(try http.send(HTTPRequest(.post, server.url("/shelf"), body: Data([0, 1, 2, 255]))).status, 200)
        XCTAssertEqual(try http.send(HTTPRequest(.post, server.url("/shelf"))).text, "POST:")
        XCTAssertEqual(try http.send(HTTPRequest(.delete, server.url("/shelf"))).text, "DELETE:")
        let head = try http.send(HTTPRequest(.head, server.url("/shelf")))
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)

        let recorded = server.requests
        XCTAssertEqual(recorded.map(\.method), ["PUT", "POST", "POST", "DELETE", "HEAD"])
        XCTAssertEqual(recorded[0].header("Content-Type"), "application/json")
        XCTAssertEqual(recorded[1].header("Content-Type"), "application/octet-stream")
        XCTAssertEqual(recorded[1].body, Data([0, 1, 2, 255]))
        XCTAssertNil(recorded[0].header("Expect"), "no 100-continue round trip")
    }

    func testBasicAuthIsSentAndCredentialsNeverAppearInErrors() throws {
        server.route("GET", "/loans", .status(401, headers: ["WWW-Authenticate": "Basic realm=\"library\""]))
        var request = get("/loans?key=apikey123456")
        request.setBasicAuth(user: "patron42", password: "s3cret-pin")
        let response = try client().send(request)
        XCTAssertEqual(
            server.requests.first?.header("Authorization"),
            "Basic " + Data("patron42:s3cret-pin".utf8).base64EncodedString())

        let error = try XCTUnwrap(httpError { try response.requireSuccess() })
        XCTAssertEqual(error.status, 401)
        XCTAssertTrue(error.description.contains("401"))
        XCTAssertTrue(error.description.contains("password"), error.description)
        XCTAssertFalse(error.description.contains("apikey123456"), error.description)

        // Credentials in the URL, and a transport failure whose text comes from libcurl.
        server.stop()
        var withUserInfo = URLComponents(url: server.url("/loans"), resolvingAgainstBaseURL: false)!
        withUserInfo.user = "patron42"
        withUserInfo.password = "s3cret-pin"
        var refused = HTTPRequest(.get, withUserInfo.url!)
        refused.setBasicAuth(user: "patron42", password: "s3cret-pin")
        let transport = try XCTUnwrap(httpError { try self.client { $0.retry = .none }.send(refused) })
        XCTAssertEqual(transport.kind, .cannotConnect)
        for text in [transport.description, String(describing: transport), transport.localizedDescription] {
            XCTAssertFalse(text.contains("s3cret-pin"), text)
            XCTAssertFalse(text.contains(Data("patron42:s3cret-pin".utf8).base64EncodedString()), text)
            XCTAssertTrue(text.contains("127.0.0.1"), text)
            XCTAssertTrue(text.contains("connection"), text)
        }
    }

    func testBearerTokenHeader() throws {
        server.route("GET", "/me", .text("{}"))
        var request = get("/me")
        request.setBearerToken("tok-abc")
        _ = try client().send(request)
        XCTAssertEqual(server.requests.first?.header("authorization"), "Bearer tok-abc")
    }

    func testHeaderInjectionIsRefusedBeforeSending() {
        var request = get("/x")
        request.headers["X-Evil"] = "a\r\nX-Injected: 1"
        let error = httpError { try self.client().send(request) }
        guard case .invalidRequest? = error?.kind else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(server.requests.isEmpty)
    }

    // MARK: - Retries

    func testRetriesAfter503HonouringRetryAfterSeconds() throws {
        server.route("GET", "/busy", sequence: [.status(503, headers: ["Retry-After": "1"]), .text("ok")])
        let start = Date()
        let response = try client().send(get("/busy"))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.attempts, 2)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertGreaterThanOrEqual(elapsed, 0.9, "waited as Retry-After asked, not the 10 ms backoff")
        XCTAssertLessThan(elapsed, 3)
    }

    func testRetryAfterAsHTTPDateAndCappedWaits() throws {
        let past = LoopbackHTTPServer.httpDate(Date().addingTimeInterval(-60))
        server.route("GET", "/past", sequence: [.status(503, headers: ["Retry-After": past]), .text("ok")])
        server.route("GET", "/hour", sequence: [.status(429, headers: ["Retry-After": "3600"]), .text("ok")])
        let http = client { $0.retry.maxDelay = 0.3 }
        let start = Date()
        XCTAssertEqual(try http.send(get("/past")).status, 200)
        XCTAssertEqual(try http.send(get("/hour")).status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "an hour-long Retry-After is capped by maxDelay")

        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(RetryAfter.parse("120", now: now), 120)
        XCTAssertEqual(RetryAfter.parse("Tue, 14 Nov 2023 22:15:20 GMT", now: now), 120)
        XCTAssertEqual(RetryAfter.parse("Tuesday, 14-Nov-23 22:15:20 GMT", now: now), 120)
        XCTAssertEqual(RetryAfter.parse("Tue Nov 14 22:15:20 2023", now: now), 120)
        XCTAssertEqual(RetryAfter.parse("Mon, 13 Nov 2023 22:13:20 GMT", now: now), 0)
        XCTAssertNil(RetryAfter.parse("soon", now: now))
    }

    func testGivesUpAfterMaxAttemptsAndExplains() throws {
        server.route("GET", "/down", .status(503))
        let response = try client { $0.retry.maxAttempts = 3 }.send(get("/down"))
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(server.requests.count, 3)
        let error = try XCTUnwrap(httpError { try response.requireSuccess() })
        XCTAssertEqual(error.attempts, 3)
        XCTAssertTrue(error.description.contains("503"), error.description)
        XCTAssertTrue(error.description.contains("try again later"), error.description)
        XCTAssertTrue(error.description.contains(server.url("/down").absoluteString), error.description)
    }

    func testTotalWaitBoundStopsRetrying() throws {
        server.route("GET", "/slow-down", .status(503, headers: ["Retry-After": "1"]))
        let start = Date()
        let response = try client {
            $0.retry = .init(maxAttempts: 10, initialDelay: 0.01, maxDelay: 1, maxTotalWait: 0.5)
        }
        .send(get("/slow-down"))
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(server.requests.count, 1, "a 1 s wait does not fit a 0.5 s budget")
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.9)
    }

    func testNoRetryOn404OrOnPostAfter500() throws {
        server.route("GET", "/missing", .status(404))
        server.route("POST", "/borrow", .status(500))
        let http = client()
        XCTAssertEqual(try http.send(get("/missing")).status, 404)
        XCTAssertEqual(try http.send(HTTPRequest(.post, server.url("/borrow"), body: Data("x".utf8))).status, 500)
        XCTAssertEqual(server.requests.count, 2, "one each: 404 is final, a POST may have been acted on")
        let error = try XCTUnwrap(httpError { try http.send(self.get("/missing")).requireSuccess() })
        XCTAssertTrue(error.description.contains("404"), error.description)
    }

    func testRetriesADroppedConnection() throws {
        server.route("GET", "/flaky", sequence: [.dropConnection, .text("finally")])
        let response = try client().send(get("/flaky"))
        XCTAssertEqual(response.text, "finally")
        XCTAssertEqual(server.requests.count, 2)

        server.route("GET", "/gone", .dropConnection)
        let error = httpError { try self.client { $0.retry.maxAttempts = 2 }.send(self.get("/gone")) }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.attempts, 2)
    }

    // MARK: - Redirects

    func testFollowsRedirectsAndReportsFinalURL() throws {
        server.route("GET", "/old", .redirect(to: "/new", status: 301))
        server.route("GET", "/new", .redirect(to: server.url("/newest").absoluteString, status: 307))
        server.route("GET", "/newest", .text("here"))
        let response = try client().send(get("/old"))
        XCTAssertEqual(response.text, "here")
        XCTAssertEqual(response.url, server.url("/newest"))
    }

    func testRedirectLimit() throws {
        server.route("GET", "/loop", .redirect(to: "/loop"))
        let error = httpError { try self.client { $0.maxRedirects = 3 }.send(self.get("/loop")) }
        XCTAssertEqual(error?.kind, .tooManyRedirects(limit: 3))
        XCTAssertEqual(server.requests.count, 4, "the first request and three redirects")
        XCTAssertTrue(error?.description.contains("more than 3") == true)
    }

    func testRedirectToAnotherSchemeIsRefused() throws {
        server.route("GET", "/sneaky", .redirect(to: "file:///etc/passwd"))
        let error = httpError { try self.client().send(self.get("/sneaky")) }
        XCTAssertEqual(error?.kind, .redirectRefused)
        XCTAssertEqual(server.requests.count, 1, "not retried")

        let ftp = httpError { try self.client().send(HTTPRequest(.get, URL(string: "ftp://127.0.0.1/x")!)) }
        XCTAssertEqual(ftp?.kind, .unsupportedScheme("ftp:"))
        let download = httpError {
            try self.client().download(
                HTTPRequest(.get, self.server.url("/sneaky")),
                to: self.folder.appendingPathComponent("passwd"))
        }
        XCTAssertEqual(download?.kind, .redirectRefused)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("passwd").path))
    }

    // MARK: - Limits and timeouts

    func testMaximumBodySize() throws {
        server.route("GET", "/huge", .data(payload(20_000)))
        server.route("GET", "/fits", .data(payload(4_000)))
        let http = client { $0.maxBodySize = 8_000 }
        XCTAssertEqual(try http.send(get("/fits")).body.count, 4_000)
        let error = httpError { try http.send(self.get("/huge")) }
        XCTAssertEqual(error?.kind, .bodyTooLarge(limit: 8_000))
        let head = try http.send(HTTPRequest(.head, server.url("/huge")))
        XCTAssertEqual(head.headers["Content-Length"], "20000", "HEAD reads no body, so no limit applies")

        let download = httpError {
            try self.client { $0.maxDownloadSize = 8_000 }.download(
                self.get("/huge"), to: self.folder.appendingPathComponent("huge"))
        }
        XCTAssertEqual(download?.kind, .bodyTooLarge(limit: 8_000))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("huge").path))
    }

    func testMaximumBodySizeWithoutAnnouncedLength() throws {
        let chunked = ["Transfer-Encoding": "chunked"]
        server.route("GET", "/stream", .data(payload(20_000), headers: chunked))
        server.route("GET", "/small-stream", .data(payload(5_000), headers: chunked))
        let http = client { $0.maxBodySize = 8_000 }
        XCTAssertEqual(try http.send(get("/small-stream")).body, payload(5_000))
        XCTAssertEqual(httpError { try http.send(self.get("/stream")) }?.kind, .bodyTooLarge(limit: 8_000))

        let destination = folder.appendingPathComponent("stream.bin")
        var last: DownloadProgress?
        let result = try client().download(get("/stream"), to: destination) { last = $0 }
        XCTAssertEqual(result.bytes, 20_000)
        XCTAssertEqual(last, DownloadProgress(bytesWritten: 20_000, totalBytes: nil))
        XCTAssertEqual(try Data(contentsOf: destination), payload(20_000))
    }

    func testTotalTimeoutAgainstASilentServer() throws {
        server.route("GET", "/silent", Response.text("late").with(delay: 5))
        let start = Date()
        var request = get("/silent")
        request.timeout = 0.5
        let error = httpError { try self.client { $0.retry = .none }.send(request) }
        XCTAssertEqual(error?.kind, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertTrue(error?.description.contains("took too long") == true)
    }

    func testLowSpeedLimitEndsAStalledBody() throws {
        server.route("GET", "/stall", Response.data(payload(4_000)).with(fault: .stallBody(after: 100, seconds: 10)))
        let start = Date()
        let error = httpError {
            try self.client {
                $0.retry = .none
                $0.lowSpeedLimit = 1_000
                $0.lowSpeedTime = 1
            }.download(self.get("/stall"), to: self.folder.appendingPathComponent("stall"))
        }
        XCTAssertEqual(error?.kind, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("stall").path))
    }

    // MARK: - Conditional requests

    func testConditionalRequestsGet304() throws {
        try Data("catalog v1".utf8).write(to: folder.appendingPathComponent("feed.xml"))
        server.serveFiles(from: folder, at: "/files")
        let http = client()
        let first = try http.send(get("/files/feed.xml"))
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.text, "catalog v1")
        XCTAssertNotNil(first.validators.etag)
        XCTAssertNotNil(first.validators.lastModified)

        var again = get("/files/feed.xml")
        again.setConditional(first.validators)
        let second = try http.send(again)
        XCTAssertTrue(second.isNotModified)
        XCTAssertTrue(second.body.isEmpty)
        XCTAssertNoThrow(try second.requireSuccess())
        XCTAssertEqual(server.requests.last?.header("If-None-Match"), first.validators.etag)

        var byDate = get("/files/feed.xml")
        byDate.setConditional(HTTPValidators(lastModified: first.validators.lastModified))
        XCTAssertEqual(try http.send(byDate).status, 304)

        var stale = get("/files/feed.xml")
        stale.setConditional(HTTPValidators(etag: "\"something-else\""))
        XCTAssertEqual(try http.send(stale).status, 200)
    }

    // MARK: - Downloads

    func testDownloadWritesTheFileWithMonotonicProgress() throws {
        let data = payload(200_000)
        server.route("GET", "/book.epub", Response.data(data).with(fault: .throttle(chunk: 16_384, interval: 0.005)))
        let destination = folder.appendingPathComponent("books/book.epub")
        var seen: [DownloadProgress] = []
        let result = try client().download(get("/book.epub"), to: destination) { seen.append($0) }

        XCTAssertEqual(try Data(contentsOf: destination), data)
        XCTAssertEqual(result.bytes, Int64(data.count))
        XCTAssertEqual(result.resumedFrom, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path + ".part"))
        XCTAssertGreaterThan(seen.count, 3)
        XCTAssertEqual(seen.map(\.bytesWritten), seen.map(\.bytesWritten).sorted(), "never goes backwards")
        XCTAssertEqual(seen.last, DownloadProgress(bytesWritten: Int64(data.count), totalBytes: Int64(data.count)))
        XCTAssertTrue(seen.allSatisfy { $0.totalBytes == Int64(data.count) })
    }

    func testTruncatedDownloadKeepsThePartThenResumesWithRange() throws {
        let data = payload(50_000)
        let counter = Counter()
        server.route("GET", "/audio.m4b") { request in
            let answer = Response.content(data, for: request)
            return counter.next() == 0 ? answer.with(fault: .truncateBody(after: 20_000)) : answer
        }
        let destination = folder.appendingPathComponent("audio.m4b")
        let part = destination.path + ".part"
        let once = client { $0.retry = .none }

        let error = httpError { try once.download(self.get("/audio.m4b"), to: destination) }
        XCTAssertEqual(error?.kind, .truncated(expected: 50_000, received: 20_000))
        XCTAssertTrue(error?.description.contains("resume") == true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "no half-written destination")
        XCTAssertEqual(HTTPClient.fileSize(part), 20_000, "the partial file is kept for resuming")

        let result = try once.download(get("/audio.m4b"), to: destination)
        XCTAssertEqual(server.requests.last?.header("Range"), "bytes=20000-")
        XCTAssertEqual(result.status, 206)
        XCTAssertEqual(result.resumedFrom, 20_000)
        XCTAssertEqual(try Data(contentsOf: destination), data)
        XCTAssertFalse(FileManager.default.fileExists(atPath: part))
    }

    func testResumeOfAChangedFileStartsOverInsteadOfSplicing() throws {
        let first = payload(30_000)
        let second = Data(repeating: 0x42, count: 25_000)
        let counter = Counter()
        server.route("GET", "/edition.epub") { request in
            counter.next() == 0
                ? Response.content(first, for: request, etag: "\"v1\"").with(fault: .truncateBody(after: 12_000))
                : Response.content(second, for: request, etag: "\"v2\"")
        }
        let destination = folder.appendingPathComponent("edition.epub")
        let once = client { $0.retry = .none }
        _ = httpError { try once.download(self.get("/edition.epub"), to: destination) }
        guard PartFileValidator.load(path: destination.path + ".part") != nil else {
            throw XCTSkip("no extended attributes on this file system: resuming goes without If-Range")
        }

        let result = try once.download(get("/edition.epub"), to: destination)
        XCTAssertEqual(server.requests.last?.header("If-Range"), "\"v1\"")
        XCTAssertEqual(server.requests.last?.header("Range"), "bytes=12000-")
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(try Data(contentsOf: destination), second, "the new edition, whole, not two halves")
    }

    func testTruncatedDownloadResumesByItselfWhenRetriesAllowIt() throws {
        let data = payload(30_000)
        let counter = Counter()
        server.route("GET", "/retry.epub") { request in
            let answer = Response.content(data, for: request)
            return counter.next() < 2 ? answer.with(fault: .truncateBody(after: 10_000)) : answer
        }
        let destination = folder.appendingPathComponent("retry.epub")
        let result = try client().download(get("/retry.epub"), to: destination)
        XCTAssertEqual(try Data(contentsOf: destination), data)
        XCTAssertEqual(result.attempts, 3)
        XCTAssertEqual(server.requests.map { $0.header("Range") ?? "-" }, ["-", "bytes=10000-", "bytes=20000-"])
    }

    func testServerThatIgnoresRangeRestartsFromZero() throws {
        let data = payload(40_000)
        server.route("GET", "/no-ranges", .data(data))
        let destination = folder.appendingPathComponent("no-ranges.bin")
        try Data(repeating: 0xEE, count: 5_000).write(to: URL(fileURLWithPath: destination.path + ".part"))

        let result = try client().download(get("/no-ranges"), to: destination)
        XCTAssertEqual(server.requests.first?.header("Range"), "bytes=5000-")
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.resumedFrom, 0)
        XCTAssertEqual(try Data(contentsOf: destination), data, "the stale partial bytes are gone")
    }

    func testCompletePartAnswered416IsPublished() throws {
        let data = payload(8_000)
        try data.write(to: folder.appendingPathComponent("done.bin"))
        server.serveFiles(from: folder, at: "/")
        let destination = folder.appendingPathComponent("out/done.bin")
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: destination.path + ".part"))

        let result = try client().download(get("/done.bin"), to: destination)
        XCTAssertEqual(result.status, 416)
        XCTAssertEqual(try Data(contentsOf: destination), data)
    }

    func testFailedDownloadNeverTouchesTheDestination() throws {
        server.route("GET", "/missing.epub", .status(404))
        server.route("GET", "/broken.epub", Response.data(payload(10_000)).with(fault: .truncateBody(after: 3_000)))
        let absent = folder.appendingPathComponent("missing.epub")
        let error = httpError { try self.client().download(self.get("/missing.epub"), to: absent) }
        XCTAssertEqual(error?.status, 404)
        XCTAssertFalse(FileManager.default.fileExists(atPath: absent.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: absent.path + ".part"))

        let existing = folder.appendingPathComponent("broken.epub")
        try Data("the old edition".utf8).write(to: existing)
        _ = httpError { try self.client { $0.retry = .none }.download(self.get("/broken.epub"), to: existing) }
        XCTAssertEqual(try Data(contentsOf: existing), Data("the old edition".utf8))
    }

    func testConditionalDownload304LeavesTheFileAlone() throws {
        server.route("GET", "/cover.jpg") { request in .content(Data("new cover".utf8), for: request, etag: "\"v2\"") }
        let destination = folder.appendingPathComponent("cover.jpg")
        let first = try client().download(get("/cover.jpg"), to: destination)
        XCTAssertEqual(first.validators.etag, "\"v2\"")
        try Data("kept".utf8).write(to: destination)

        var request = get("/cover.jpg")
        request.setConditional(first.validators)
        let second = try client().download(request, to: destination)
        XCTAssertTrue(second.notModified)
        XCTAssertEqual(try Data(contentsOf: destination), Data("kept".utf8))
    }

    func testCancellationStopsADownloadAndKeepsThePart() throws {
        let data = payload(400_000)
        server.route("GET", "/long.m4b", Response.data(data).with(fault: .throttle(chunk: 8_192, interval: 0.05)))
        let destination = folder.appendingPathComponent("long.m4b")
        let flag = Counter()
        let start = Date()
        let error = httpError {
            try self.client().download(
                self.get("/long.m4b"), to: destination,
                progress: { if $0.bytesWritten >= 16_384 { _ = flag.next() } },
                isCancelled: { flag.value > 0 })
        }
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "the whole body would take 2.5 s")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertGreaterThanOrEqual(HTTPClient.fileSize(destination.path + ".part") ?? 0, 16_384)
        XCTAssertEqual(server.requests.count, 1, "a cancelled transfer is not retried")
    }

    func testOneClientFromManyThreads() throws {
        server.route("GET", "/echo") { request in .text(request.query ?? "") }
        let http = client()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let text = try? http.send(self.get("/echo?\(index)")).text
            results.set(index, text)
        }
        XCTAssertEqual(results.values, (0..<16).map { "\($0)" })
    }
}

private typealias Response = LoopbackHTTPServer.Response

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }; return count
        }
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int: String] = [:]
    func set(_ index: Int, _ value: String?) { lock.withLock { storage[index] = value } }
    var values: [String?] { lock.withLock { (0..<storage.count).map { storage[$0] ?? nil } } }
}
