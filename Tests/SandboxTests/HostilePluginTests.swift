import Foundation
import Glibc
import TestSupport
import XCTest

/// The hostile suite (issue 30): a plugin written as an attacker would, from the public headers only
/// (Fixtures/hostile.c), built once per attack, tries what a stranger's plugin must not do to a patron of shelf.
/// Each test names what the attack reached: the plugin's own account of it (its manifest's description, one line
/// per attempt), and what the listeners the test runs received. An attack this kernel cannot show (no Landlock, an
/// ABI too old, io_uring disabled) is skipped with the reason, never passed.
final class HostilePluginTests: XCTestCase {
    var shelf: ShelfProcess!
    var home: URL { shelf.home }

    override func setUpWithError() throws {
        shelf = try ShelfProcess()
        shelf.environment["SWIFT_BACKTRACE"] = "enable=no"
    }

    override func tearDown() { shelf.cleanUp() }

    // MARK: Reading what is not the plugin's business

    /// A plugin linked with -Wl,-rpath,/ had every folder of its run path made readable: the whole disk.
    func testARunPathToTheRootWidensNothing() throws {
        try Kernel.requireLandlock()
        try arm("rpath", flags: ["-Wl,-rpath,/"])
        let report = try attempt(try book(in: home.appendingPathComponent("books"), reading: try secrets()))
        for path in try secrets() { XCTAssertEqual(report["read \(path)"], "refused (Permission denied)", "\(report)") }
    }

    /// A library the plugin really links, in a folder of its run path outside its own, still loads; its folder's
    /// other files stay closed (only the libraries shelf resolved are readable, not the folders the file names).
    func testALibraryOfTheRunPathLoadsWithoutOpeningItsFolder() throws {
        try Kernel.requireLandlock()
        let vendor = home.appendingPathComponent("vendor/lib")
        try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        let helper = vendor.appendingPathComponent("libhostilehelper.so")
        let source = home.appendingPathComponent("helper.c")
        try "int hostile_helper(void) { return 42; }\n".write(to: source, atomically: true, encoding: .utf8)
        try CCompiler.sharedLibrary(sources: [source], output: helper, flags: ["-fvisibility=default"])
        let secret = vendor.appendingPathComponent("vendor-licence-key.txt")
        try "a secret beside the library".write(to: secret, atomically: true, encoding: .utf8)
        try arm(
            "read", flags: ["-Wl,-rpath,\(vendor.path)", "-L\(vendor.path)", "-Wl,--no-as-needed", "-lhostilehelper"])
        let report = try attempt(
            try book(in: home.appendingPathComponent("books"), reading: [secret.path, helper.path]))
        XCTAssertEqual(report["read \(secret.path)"], "refused (Permission denied)", "\(report)")
        XCTAssertTrue(
            report["read \(helper.path)"]?.hasPrefix("SUCCEEDED") == true,
            "the library itself is the plugin's: \(report)")
    }

    /// A book in the home folder made the whole home folder readable: the credentials, the database, ~/.ssh.
    func testABookInTheHomeFolderOpensNothingElseThere() throws {
        try Kernel.requireLandlock()
        try arm("read")
        let other = home.appendingPathComponent("another-book.epub")
        try Data("PK another patron's book".utf8).write(to: other)
        let report = try attempt(try book(in: home, reading: try secrets() + [other.path]))
        for path in try secrets() + [other.path] {
            XCTAssertEqual(report["read \(path)"], "refused (Permission denied)", "\(report)")
        }
    }

    /// A plugin reads the data files it ships beside itself (its folder is its own), not the book's neighbours.
    func testAPluginReadsTheDataFilesBesideIt() throws {
        try Kernel.requireLandlock()
        try arm("read")
        let table = home.appendingPathComponent("plugins/hyphenation-table.dat")
        try "hy-phen-a-tion".write(to: table, atomically: true, encoding: .utf8)
        let report = try attempt(try book(in: home.appendingPathComponent("books"), reading: [table.path]))
        XCTAssertTrue(report["read \(table.path)"]?.hasPrefix("SUCCEEDED") == true, "\(report)")
    }

    /// A plugin dropped where shelf's data lives (beside the library database, or in the home folder that holds
    /// shelf's folders) had that whole folder readable as its own: the database, and from the home folder the
    /// credentials and ~/.ssh. There it reads its own file only, and still works.
    func testAPluginBesideShelfsDataReadsNoneOfIt() throws {
        try Kernel.requireLandlock()
        for folder in [home.appendingPathComponent("data"), home] {
            let secrets = try secrets()
            try arm("read", in: folder)
            let report = try attempt(try book(in: home.appendingPathComponent("books"), reading: secrets))
            for path in secrets {
                XCTAssertEqual(report["read \(path)"], "refused (Permission denied)", "\(folder.path): \(report)")
            }
        }
    }

    /// The other files of a book made of several (a manifest's tracks) come from shelf, which opens only those inside
    /// the book's folder, not hidden and not its own; the plugin cannot open even those itself.
    func testCompanionFilesComeFromShelfAndOnlyTheBooks() throws {
        try Kernel.requireLandlock()
        try arm("companion")
        let books = home.appendingPathComponent("books")
        try FileManager.default.createDirectory(
            at: books.appendingPathComponent("tracks"), withIntermediateDirectories: true)
        try "the first track".write(
            to: books.appendingPathComponent("tracks/01.mp3"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: books.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
        try "hidden".write(to: books.appendingPathComponent(".hidden/x"), atomically: true, encoding: .utf8)
        let elsewhere = home.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try "someone else's".write(to: elsewhere.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: books.appendingPathComponent("link.txt"),
            withDestinationURL: elsewhere.appendingPathComponent("notes.txt"))
        _ = try secrets()
        let report = try attempt(
            try book(
                in: books, reading: [books.appendingPathComponent("tracks/01.mp3").path],
                lines: [
                    "COMPANION tracks/01.mp3", "COMPANION ../config/credentials.json", "COMPANION .hidden/x",
                    "COMPANION link.txt",
                    "FORGE \(elsewhere.appendingPathComponent("book.hostile").path) notes.txt",
                    "FORGE \(home.path)/config/x credentials.json"
                ]))
        XCTAssertEqual(
            report["read \(books.path)/tracks/01.mp3"], "refused (Permission denied)",
            "the plugin reads only its book itself: \(report)")
        XCTAssertEqual(report["companion tracks/01.mp3"], "SUCCEEDED [the first track]", "\(report)")
        for refused in [
            "companion ../config/credentials.json", "companion .hidden/x", "companion link.txt",
            "companion notes.txt of \(elsewhere.path)/book.hostile",
            "companion credentials.json of \(home.path)/config/x"
        ] {
            XCTAssertTrue(report[refused]?.hasPrefix("refused") == true, "\(refused): \(report)")
        }
    }

    // MARK: Environment

    /// A password given to `shelf serve` in its environment reached every plugin.
    func testThePluginSeesNoneOfShelfsEnvironment() throws {
        try arm("environment")
        shelf.environment["SHELF_SERVE_PASSWORD"] = "hunter2-from-the-environment"
        shelf.environment["AWS_SECRET_ACCESS_KEY"] = "hunter3-from-the-environment"
        let report = try attempt(try book(in: home.appendingPathComponent("books")))
        XCTAssertEqual(report["environment"], "SUCCEEDED", "the plugin ran: \(report)")
        let text = report.description
        XCTAssertFalse(text.contains("hunter2"), text)
        XCTAssertFalse(text.contains("hunter3"), text)
        XCTAssertFalse(text.contains("SHELF_HOME"), "shelf's own settings are not the plugin's: \(text)")
        XCTAssertTrue(
            report.keys.contains { $0.hasPrefix("env LANG=") || $0.hasPrefix("env LC_ALL=") },
            "the locale is given: \(text)")
    }

    // MARK: Lifetime and resources

    /// A double-forked child outlived shelf.
    func testAForkedChildCannotOutliveShelf() throws {
        try arm("fork")
        let report = try attempt(try book(in: home.appendingPathComponent("books")))
        Thread.sleep(forTimeInterval: 0.5)
        let marks = self.marks()
        defer { marks.forEach(killMarked) }
        XCTAssertTrue(report["fork"]?.hasPrefix("refused") == true, "\(report)")
        XCTAssertEqual(marks, [], "a grandchild ran: \(report)")
    }

    /// The mark a program run by the plugin writes (in the plugin's data folder, which it may write).
    func testAPluginCannotRunAProgram() throws {
        try arm("exec")
        let result = try shelf.run(["manifest", try book(in: home.appendingPathComponent("books"))])
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(marks(), [], "a program ran: \(result.stdout) \(result.stderr)")
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try Self.report(result)
        XCTAssertTrue(report["fork for exec"]?.hasPrefix("refused") == true, "\(report)")
        XCTAssertTrue(report["exec"]?.hasPrefix("refused") == true, "\(report)")
    }

    /// 8 GiB allocations succeeded.
    func testAllocationsStopAtTheMemoryLimit() throws {
        try arm("memory")
        let report = try attempt(try book(in: home.appendingPathComponent("books")))
        XCTAssertEqual(report["8 GiB allocation"], "refused (Cannot allocate memory)", "\(report)")
        shelf.environment["SHELF_PLUGIN_MEMORY"] = "16384"
        let raised = try attempt(try book(in: home.appendingPathComponent("books"), named: "raised"))
        XCTAssertEqual(raised["8 GiB allocation"], "SUCCEEDED", "SHELF_PLUGIN_MEMORY (MiB) raises the limit: \(raised)")
    }

    /// A plugin that kept reporting progress ran for ever: the total deadline of a call stops it.
    func testEndlessProgressIsStoppedAtTheCallsDeadline() throws {
        try arm("progress")
        shelf.environment["SHELF_PLUGIN_CALL_LIMIT"] = "2"
        let started = Date()
        let result = try shelf.run(["manifest", try book(in: home.appendingPathComponent("books"))], timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, result.stderr)
        XCTAssertTrue((1..<128).contains(result.status), "exit \(result.status): \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("\"Hostile\" (org.shelf.test.hostile) ran longer than 2 s"), result.stderr)
        XCTAssertTrue(result.stderr.contains("SHELF_PLUGIN_CALL_LIMIT"), "the line names the setting: \(result.stderr)")
    }

    /// The first Ctrl-C did nothing while the plugin kept reporting progress.
    func testCtrlCStopsAPluginThatKeepsReportingProgress() throws {
        try arm("progress")
        let process = Process()
        process.executableURL = ShelfProcess.executable
        process.arguments = ["manifest", try book(in: home.appendingPathComponent("books"))]
        process.environment = shelf.environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        let pressed = Date()
        process.interrupt()
        let exited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit(); exited.signal()
        }
        if exited.wait(timeout: .now() + 10) == .timedOut {
            process.terminate()
            XCTFail("one Ctrl-C did not stop shelf within 10 s")
            return
        }
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 5)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 130, stderr)
    }

    // MARK: Sockets

    /// A UDP datagram left through io_uring, which the socket() filter never saw.
    func testNoDatagramLeavesThroughIoUring() throws {
        try Kernel.requireIoUring()
        try arm("udp")
        let listener = try UDPListener()
        let report = try attempt(try book(in: home.appendingPathComponent("books"), lines: ["UDP \(listener.port)"]))
        XCTAssertNil(listener.received(), "a datagram reached the listener: \(report)")
        XCTAssertTrue(report.values.contains { $0.hasPrefix("refused") }, "\(report)")
        XCTAssertFalse(report.values.contains { $0.hasPrefix("SUCCEEDED") }, "\(report)")
    }

    /// A unix socket connection (by path, and in the abstract namespace) left through io_uring.
    func testNoUnixSocketIsReachable() throws {
        try Kernel.requireLandlock(abi: 6, for: "abstract unix sockets")
        try Kernel.requireIoUring()
        try arm("unix")
        let path = home.appendingPathComponent("run/agent.sock").path
        let named = try UnixListener(path: path)
        let abstract = try UnixListener(abstract: "shelf-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let report = try attempt(
            try book(in: home.appendingPathComponent("books"), lines: ["UNIX \(path)", "ABSTRACT \(abstract.name)"]))
        XCTAssertFalse(named.accepted(), "the path socket was reached: \(report)")
        XCTAssertFalse(abstract.accepted(), "the abstract socket was reached: \(report)")
        XCTAssertEqual(report.count, 4, "\(report)")
        XCTAssertFalse(report.values.contains { $0.hasPrefix("SUCCEEDED") }, "\(report)")
    }

    func testASocketPairIsRefused() throws {
        try arm("socketpair")
        let report = try attempt(try book(in: home.appendingPathComponent("books")))
        XCTAssertTrue(report["socketpair"]?.hasPrefix("refused") == true, "\(report)")
    }

    // MARK: The network

    /// A connector reached another service on this machine through the host's HTTP client: it reaches only the
    /// hosts its settings name (here the fake service's loopback port) or its description declares.
    func testAConnectorReachesOnlyItsOwnService() throws {
        try arm("http")
        let service = try LoopbackHTTPServer(), other = try LoopbackHTTPServer()
        defer { service.stop(); other.stop() }
        service.route("GET", "/ok", LoopbackHTTPServer.Response(status: 200, body: Data("fine".utf8)))
        other.route("GET", "/secret", LoopbackHTTPServer.Response(status: 200, body: Data("hunter2".utf8)))
        let fetch = "\(service.baseURL)/ok \(other.baseURL)/secret http://localhost:\(other.port)/secret"
        let connected = try shelf.run([
            "lists", "connect", "hostile-list", "--set", "baseURL=\(service.baseURL)", "--set", "fetch=\(fetch)"
        ])
        XCTAssertEqual(connected.status, 0, connected.stderr)
        _ = try shelf.run(["lists", "pull", "hostile-list"])
        let shown = try shelf.run(["lists", "show", "--json"])
        XCTAssertEqual(other.requests.count, 0, "another loopback service was reached: \(shown.stdout)")
        XCTAssertEqual(
            service.requests(to: "/ok").count, 1,
            "the connector's own service is reached: \(shown.stdout) \(shown.stderr)")
        XCTAssertTrue(shown.stdout.contains("\(service.baseURL)/ok answered 200"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\(other.baseURL)/secret refused"), shown.stdout)
    }

    /// A format plugin has no business on the network at all.
    func testAFormatPluginGetsNoHTTP() throws {
        try arm("http")
        let other = try LoopbackHTTPServer()
        defer { other.stop() }
        other.route("GET", "/secret", LoopbackHTTPServer.Response(status: 200, body: Data("hunter2".utf8)))
        let report = try attempt(
            try book(in: home.appendingPathComponent("books"), lines: ["URL \(other.baseURL)/secret"]))
        XCTAssertEqual(other.requests.count, 0, "\(report)")
        XCTAssertTrue(report["fetch \(other.baseURL)/secret"]?.hasPrefix("refused") == true, "\(report)")
    }

    // MARK: Log lines

    /// A plugin's log lines passed to the terminal as written: a forged `shelf:` line, escape sequences that clear
    /// the line or retitle the window, and as many lines as it liked.
    func testLogLinesAreOneSafeLineEachAndLimited() throws {
        try arm("log")
        let result = try shelf.run(["manifest", try book(in: home.appendingPathComponent("books"))], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines where !line.isEmpty {
            XCTAssertTrue(
                line.hasPrefix("shelf: org.shelf.test.hostile: "),
                "a line of the plugin's not named as its own: \(line)")
        }
        XCTAssertFalse(
            result.stderr.unicodeScalars.contains {
                $0.value == 0x1B || $0.value == 0x0D || $0.value == 0x07 || $0.value == 0x9B
            },
            "a control character reached the terminal: \(result.stderr.debugDescription)")
        XCTAssertTrue(result.stderr.contains("innocent\\nshelf: error: your library password expired"), result.stderr)
        let floods = lines.filter { $0.hasSuffix("warning: flood") }.count
        XCTAssertGreaterThan(floods, 10, "lines within the rate are shown")
        XCTAssertLessThan(floods, 1000, "5000 lines at once are not all shown")
        XCTAssertTrue(
            lines.contains { $0.contains("more lines of this plugin not shown") },
            "the lines held back are counted: \(lines.suffix(3))")
    }

    // MARK: Helpers

    /// Builds the plugin of one attack into `folder` (the home's plugin folder), which the shelf of this test searches.
    func arm(_ attack: String, flags: [String] = [], in folder: URL? = nil) throws {
        let folder = folder ?? home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("libshelf-hostile.so")
        let source = ShelfProcess.packageRoot.appendingPathComponent("Tests/SandboxTests/Fixtures/hostile.c")
        try CCompiler.sharedLibrary(
            sources: [source], output: output, includes: CCompiler.pluginIncludes,
            flags: ["-std=gnu11", "-Wno-pedantic", "-DATTACK=\"\(attack)\""] + flags)
        shelf.environment["SHELF_PLUGIN_PATH"] = output.path
    }

    /// The files a plugin must never read: the credentials, the library database, a private key, /etc/shadow.
    func secrets() throws -> [String] {
        let credentials = home.appendingPathComponent("config/credentials.json")
        let database = home.appendingPathComponent("data/library.sqlite3")
        let key = home.appendingPathComponent(".ssh/id_ed25519")
        for (url, text) in [(credentials, "{\"library\":\"hunter2\"}"), (key, "-----BEGIN OPENSSH PRIVATE KEY-----")] {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: url.path) {
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        if !FileManager.default.fileExists(atPath: database.path) {
            let made = try shelf.run(["books"])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: database.path))
        return [credentials.path, database.path, key.path, "/etc/shadow"]
    }

    /// A book in `folder` whose lines aim the attack.
    func book(in folder: URL, named name: String = "attack", reading: [String] = [], lines: [String] = []) throws
        -> String
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(name).hostile")
        try (["HOSTILE"] + reading.map { "READ \($0)" } + lines + ["The book's own text.", ""]).joined(separator: "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Opens the book and returns what the plugin said it achieved ("what" -> "refused (...)" / "SUCCEEDED ...").
    func attempt(_ book: String) throws -> [String: String] {
        let result = try shelf.run(["manifest", book], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Self.report(result)
    }

    static func report(_ result: ShelfProcess.Result) throws -> [String: String] {
        let json = try XCTUnwrap(try result.json() as? [String: Any], result.stdout)
        let description = (json["metadata"] as? [String: Any])?["description"] as? String ?? ""
        var report: [String: String] = [:]
        for line in description.split(separator: "\n") {
            if line.hasPrefix("env ") { report[String(line)] = ""; continue }
            guard let colon = line.range(of: ": refused") ?? line.range(of: ": SUCCEEDED") else { continue }
            report[String(line[..<colon.lowerBound])] = String(line[line.index(colon.lowerBound, offsetBy: 2)...])
        }
        return report
    }

    /// The marks that attacks' programs wrote anywhere in the home.
    func marks() -> [URL] {
        let all = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return all.filter { $0.lastPathComponent == "mark" }
    }

    /// Ends a grandchild that got away (before the fix), by the pid it wrote.
    func killMarked(_ mark: URL) {
        guard let text = try? String(contentsOf: mark, encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            pid > 1
        else { return }
        kill(pid, SIGKILL)
    }
}

/// What this kernel offers, asked of it by a small C library (Fixtures/kernel.c) rather than of the sandbox.
enum Kernel {
    private static let library: UnsafeMutableRawPointer? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-kernel-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("libkernelprobe.so")
        let source = ShelfProcess.packageRoot.appendingPathComponent("Tests/SandboxTests/Fixtures/kernel.c")
        guard
            (try? CCompiler.sharedLibrary(sources: [source], output: output, flags: ["-std=gnu11", "-Wno-pedantic"]))
                != nil
        else { return nil }
        return dlopen(output.path, RTLD_NOW)
    }()

    private static func call(_ name: String) -> Int32 {
        guard let library, let symbol = dlsym(library, name) else { return 0 }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)()
    }

    static var landlockABI: Int { Int(call("shelf_test_landlock_abi")) }
    static var ioUring: Bool { call("shelf_test_io_uring") == 1 }

    static func requireLandlock(abi: Int = 1, for what: String = "file confinement") throws {
        guard landlockABI >= abi else {
            throw XCTSkip(
                "this kernel's Landlock ABI is \(landlockABI), below \(abi), which \(what) needs: the attack cannot be shown here"
            )
        }
    }

    static func requireIoUring() throws {
        guard ioUring else {
            throw XCTSkip("io_uring is disabled on this kernel (or by its container): the attack cannot be shown here")
        }
    }
}

/// A UDP socket on 127.0.0.1 that says whether a datagram came.
final class UDPListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard fd >= 0, bound == 0 else { throw NSError(domain: "UDPListener", code: Int(errno)) }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    func received() -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}

/// A listening unix socket, by path or in the abstract namespace, that says whether anyone connected.
final class UnixListener {
    let fd: Int32
    let name: String

    convenience init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try self.init(name: path, abstract: false)
    }

    convenience init(abstract name: String) throws { try self.init(name: name, abstract: true) }

    private init(name: String, abstract: Bool) throws {
        self.name = name
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.fd = fd
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() where i + (abstract ? 1 : 0) < raw.count - 1 {
                raw[i + (abstract ? 1 : 0)] = byte
            }
        }
        let size =
            abstract
            ? socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count) : socklen_t(MemoryLayout<sockaddr_un>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard fd >= 0, bound == 0, listen(fd, 4) == 0 else { throw NSError(domain: "UnixListener", code: Int(errno)) }
    }

    deinit { close(fd) }

    func accepted() -> Bool {
        let client = accept(fd, nil, nil)
        if client >= 0 { close(client) }
        return client >= 0
    }
}
