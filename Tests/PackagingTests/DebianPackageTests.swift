import Foundation
import TestSupport
import XCTest

/// The Debian packages `make deb` builds, made here from this test build (packaging/build-deb.sh on the debug
/// products, stripped, gzip instead of xz): lintian accepts both, and the shelf they hold, unpacked with `dpkg -x`
/// and run with the toolchain's Swift runtime hidden by a mount namespace, loads only its own runtime, finds its
/// plugins and passes `shelf conformance` on each and on a plugin built with shelf-plugin-dev.
final class DebianPackageTests: XCTestCase {
    /// Built once for the class: the packages and the folder both were unpacked into.
    private static var built: (deb: URL, dev: URL, root: URL, folder: URL)?
    private static var buildFailure: Error?

    override class func setUp() {
        super.setUp()
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-deb-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = try Tool("sh", package: "dash")
            for (tool, package) in [("patchelf", "patchelf"), ("dpkg-shlibdeps", "dpkg-dev"), ("dpkg-deb", "dpkg")] {
                _ = try Tool(tool, package: package)
            }
            var environment = ProcessInfo.processInfo.environment
            environment["DEB_COMPRESSION"] = "gzip"
            let result = try script.run(
                [
                    ShelfProcess.packageRoot.appendingPathComponent("packaging/build-deb.sh").path,
                    ShelfProcess.buildDirectory.path, folder.path
                ], environment: environment)
            guard result.status == 0 else {
                throw NSError(
                    domain: "build-deb.sh", code: Int(result.status),
                    userInfo: [NSLocalizedDescriptionKey: result.stderr])
            }
            // It prints the two packages' paths: shelf's, then shelf-plugin-dev's.
            let debs = result.stdout.split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
            guard debs.count == 2 else {
                throw NSError(domain: "build-deb.sh", code: 0, userInfo: [NSLocalizedDescriptionKey: result.stdout])
            }
            let root = folder.appendingPathComponent("root")
            for deb in debs {
                let unpacked = try Tool("dpkg-deb", package: "dpkg").run(["-x", deb.path, root.path])
                guard unpacked.status == 0 else {
                    throw NSError(
                        domain: "dpkg-deb", code: Int(unpacked.status),
                        userInfo: [NSLocalizedDescriptionKey: unpacked.stderr])
                }
            }
            built = (debs[0], debs[1], root, folder)
        } catch {
            buildFailure = error
        }
    }

    override class func tearDown() {
        if let folder = built?.folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    private func package() throws -> (deb: URL, root: URL) {
        let built = try packages()
        return (built.deb, built.root)
    }

    private func packages() throws -> (deb: URL, dev: URL, root: URL) {
        if let skip = Self.buildFailure as? XCTSkip { throw skip }
        if let failure = Self.buildFailure { XCTFail("packaging/build-deb.sh failed: \(failure)") }
        let built = try XCTUnwrap(Self.built)
        return (built.deb, built.dev, built.root)
    }

    /// The folder the build's Swift runtime comes from (libswiftCore.so's, as ldd resolves it).
    private func toolchainRuntime() throws -> String {
        let ldd = try Tool("ldd", package: "libc-bin").run([ShelfProcess.executable.path])
        let line = try XCTUnwrap(ldd.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so =>") })
        let path = String(line.split(separator: " ")[2])
        return (path as NSString).deletingLastPathComponent
    }

    /// Runs `arguments` in a mount namespace where the toolchain's runtime folder is an empty tmpfs, without
    /// LD_LIBRARY_PATH, with a test SHELF_HOME.
    private func withoutToolchain(_ arguments: [String], home: URL) throws -> Tool.Result {
        let unshare = try Tool("unshare", package: "util-linux")
        let hidden = try toolchainRuntime()
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = nil
        environment["SHELF_PLUGIN_PATH"] = nil
        environment["SHELF_HOME"] = home.path
        environment["HOME"] = home.path
        let probe = try unshare.run(["-rm", "true"])
        if probe.status != 0 {
            throw XCTSkip("this kernel refuses a user and mount namespace (unshare -rm: \(probe.stderr))")
        }
        return try unshare.run(
            ["-rm", "sh", "-c", "mount -t tmpfs tmpfs \"$0\" && exec \"$@\"", hidden] + arguments,
            environment: environment)
    }

    func testLintianAcceptsBothPackages() throws {
        let (deb, dev, _) = try packages()
        let lintian = try Tool("lintian", package: "lintian")
        let result = try lintian.run(["--fail-on", "error,warning", deb.path, dev.path])
        let tags = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        XCTAssertEqual(tags, [], "lintian at its default level")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// A plugin author's build against the unpacked shelf-plugin-dev (pkg-config with the unpacked tree as its
    /// sysroot) makes a plugin the packaged shelf loads and that passes conformance.
    func testAPluginBuiltWithThePluginDevPackagePassesConformance() throws {
        let (_, root) = try package()
        let pkgConfig = try Tool("pkg-config", package: "pkg-config")
        let cc = try Tool("cc", package: "gcc")
        var environment = ProcessInfo.processInfo.environment
        let multiarch = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("usr/lib").path)
                .first { $0.hasSuffix("-linux-gnu") })
        environment["PKG_CONFIG_LIBDIR"] = root.appendingPathComponent("usr/lib/\(multiarch)/pkgconfig").path
        environment["PKG_CONFIG_SYSROOT_DIR"] = root.path
        let flags = try pkgConfig.run(["--cflags", "--libs", "shelf-plugin"], environment: environment)
        XCTAssertEqual(flags.status, 0, flags.stderr)
        XCTAssertTrue(flags.stdout.contains(root.appendingPathComponent("usr/include").path), flags.stdout)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-deb-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let plugin = home.appendingPathComponent("libshelf-gemini.so")
        let examples = ShelfProcess.packageRoot.appendingPathComponent("Examples/gemini-plugin")
        let compiled = try cc.run(
            [
                "-std=c99", "-shared", "-fPIC", "-fvisibility=hidden", "-o", plugin.path,
                examples.appendingPathComponent("gemini.c").path
            ]
                + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let result = try withoutToolchain(
            [
                root.appendingPathComponent("usr/bin/shelf").path, "conformance", plugin.path,
                "--sample", examples.appendingPathComponent("samples/harbour-notes.gmi").path
            ], home: home)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains(" 0 failed"), result.stdout)
    }

    func testControlFieldsAndContents() throws {
        let (deb, root) = try package()
        let info = try Tool("dpkg-deb", package: "dpkg").run([
            "-f", deb.path, "Package", "Version", "Architecture", "Depends"
        ])
        XCTAssertEqual(info.status, 0, info.stderr)
        let version = try ShelfProcess().run(["--version"]).stdout.split(separator: " ")[1]
        XCTAssertTrue(info.stdout.contains("Version: \(version)"), info.stdout)
        // Linked (dpkg-shlibdeps) and opened with dlopen (read from the binaries) alike; no Swift package.
        for dependency in [
            "libc6", "libsqlite3-0", "libxml2", "libavformat", "libcurl4", "libzip4", "libmicrohttpd12",
            "libseccomp2", "libespeak-ng1"
        ] {
            XCTAssertTrue(info.stdout.contains(dependency), "Depends names \(dependency): \(info.stdout)")
        }
        XCTAssertFalse(info.stdout.lowercased().contains("swift"), info.stdout)
        for path in [
            "usr/bin/shelf", "usr/lib/shelf/shelf-plugin-sandbox", "usr/lib/shelf/plugins/libshelf-epub3.so",
            "usr/lib/shelf/swift/libswiftCore.so",
            "usr/share/shelf/web/index.html", "usr/share/man/man1/shelf.1.gz", "usr/share/man/man7/shelf-plugin.7.gz",
            "usr/share/bash-completion/completions/shelf", "usr/share/zsh/vendor-completions/_shelf",
            "usr/share/fish/vendor_completions.d/shelf.fish", "usr/share/applications/org.shelfreader.Shelf.desktop",
            "usr/share/mime/packages/shelf.xml", "usr/share/metainfo/org.shelfreader.Shelf.metainfo.xml",
            "usr/share/icons/hicolor/scalable/apps/org.shelfreader.Shelf.svg", "usr/share/doc/shelf/copyright",
            "usr/include/shelf/plugin.h", "usr/bin/shelf-plugin-host", "usr/share/doc/shelf-plugin-dev/copyright"
        ] {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path),
                "the package holds \(path)")
        }
        // RUNPATHs relative to each file, never the build machine's toolchain.
        let readelf = try Tool("readelf", package: "binutils")
        let toolchain = try toolchainRuntime()
        for (path, runpath) in [
            ("usr/bin/shelf", "$ORIGIN/../lib/shelf/swift"),
            ("usr/lib/shelf/plugins/libshelf-audiobook.so", "$ORIGIN/../swift"),
            ("usr/lib/shelf/swift/libFoundation.so", "$ORIGIN")
        ] {
            let dynamic = try readelf.run(["-d", root.appendingPathComponent(path).path]).stdout
            XCTAssertTrue(dynamic.contains("Library runpath: [\(runpath)]"), "\(path): \(dynamic)")
            XCTAssertFalse(dynamic.contains(toolchain), path)
        }
    }

    func testUnpackedShelfRunsOnItsOwnRuntimeAndPassesConformance() throws {
        let (_, root) = try package()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-deb-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let shelf = root.appendingPathComponent("usr/bin/shelf").path
        let plugins = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("usr/lib/shelf/plugins").path
        )
        .filter { $0.hasSuffix(".so") }.sorted()
        XCTAssertEqual(plugins.count, 6, "the bundled plugins")

        // Every library resolves, the Swift ones to the package's own folder.
        let ldd = try withoutToolchain(
            ["ldd", shelf] + plugins.map { root.appendingPathComponent("usr/lib/shelf/plugins/\($0)").path }, home: home
        )
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        XCTAssertFalse(ldd.stdout.contains("not found"), ldd.stdout)
        for line in ldd.stdout.split(separator: "\n") where line.contains("libswift") || line.contains("libFoundation")
        {
            // ldd prints the path as the RUNPATH makes it: usr/bin/../lib/shelf/swift, usr/lib/shelf/plugins/../swift.
            let path = String(line.split(separator: " ")[2])
            XCTAssertEqual(
                URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path,
                root.appendingPathComponent("usr/lib/shelf/swift").path, String(line))
        }

        // Its plugins, found beside it in lib/shelf/plugins.
        let listed = try withoutToolchain([shelf, "plugins", "--json"], home: home)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        for id in [
            "org.shelf.epub2", "org.shelf.epub3", "org.shelf.audiobook", "org.shelf.goodreads", "org.shelf.googlebooks",
            "org.shelf.speech.espeak-ng"
        ] {
            XCTAssertTrue(listed.stdout.contains("\"\(id)\""), "shelf plugins lists \(id): \(listed.stdout)")
        }

        // Conformance on each, as a plugin author runs it, with a sample each format plugin opens.
        let samples = ShelfProcess.packageRoot.appendingPathComponent("samples")
        let tone = home.appendingPathComponent("tone.mp3")
        let ffmpeg = try Tool("ffmpeg", package: "ffmpeg")
        let made = try ffmpeg.run([
            "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
            "-c:a", "libmp3lame", "-b:a", "32k", tone.path
        ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let sampleFor = [
            "libshelf-epub2.so": samples.appendingPathComponent("a-winter-crossing.epub").path,
            "libshelf-epub3.so": samples.appendingPathComponent("the-lighthouse-keeper.epub").path,
            "libshelf-audiobook.so": tone.path
        ]
        for plugin in plugins {
            let path = root.appendingPathComponent("usr/lib/shelf/plugins/\(plugin)").path
            let sample = sampleFor[plugin].map { ["--sample", $0] } ?? []
            let result = try withoutToolchain([shelf, "conformance", path] + sample, home: home)
            XCTAssertEqual(result.status, 0, "\(plugin): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains(" 0 failed"), "\(plugin): \(result.stdout)")
        }
    }
}
