// swift-tools-version:6.0
// shelf: a reading host whose formats and reading-list connectors are dlopen'd C-ABI plugins.
//
// The host (`Host`, `shelf`) never links a plugin. Each directory under Plugins/ is a
// dynamic library product found at run time; Swift plugins share `PluginKit`, which is
// linked into the plugins only. All of them share one dynamic Swift runtime.
import PackageDescription

// Plugins export exactly one symbol, `shelf_plugin_entry`; everything else stays local
// so that two plugins carrying the same PluginKit code never interpose on each other.
let pluginLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=Sources/PluginAPI/plugin.map"])
]

func plugin(_ name: String, product: String, dependencies: [Target.Dependency] = []) -> (Product, Target) {
    (
        .library(name: product, type: .dynamic, targets: [name]),
        .target(
            name: name,
            dependencies: ["PluginKit", "PluginAPI"] + dependencies,
            path: "Plugins/\(name)",
            linkerSettings: pluginLinkerSettings
        )
    )
}

let plugins = [
    plugin("EPUB2", product: "shelf-epub2", dependencies: ["EPUBCore"]),
    plugin("EPUB3", product: "shelf-epub3", dependencies: ["EPUBCore"]),
    plugin("Audiobook", product: "shelf-audiobook", dependencies: ["CFFmpeg", "LibZip"]),
    plugin("Goodreads", product: "shelf-goodreads", dependencies: ["CCrypto", "CXML2"]),
    plugin("GoogleBooks", product: "shelf-googlebooks", dependencies: ["CCrypto"]),
    // Speech on libespeak-ng, in C on libshelf-plugin; the library is opened on first use (CLazyLibrary), so
    // without it the plugin is refused with the package to install.
    (.library(name: "shelf-speech", type: .dynamic, targets: ["Speech"]),
     .target(name: "Speech", dependencies: ["PluginHelper", "PluginAPI", "CLazyLibrary"], path: "Plugins/Speech",
             linkerSettings: pluginLinkerSettings)),
]

// The front ends see what the facade shows and nothing more: the facade imports every subsystem `internal`ly, and with
// MemberImportVisibility a member declared in a module a file does not import itself (a subsystem's extension on a
// shared value, say) is refused by the compiler instead of reaching the front end through the facade's imports.
let frontEndSettings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "shelf",
    products: [
        .executable(name: "shelf", targets: ["shelf"]),
        .executable(name: "shelf-plugin-sandbox", targets: ["shelf-plugin-sandbox"]),
    ] + plugins.map(\.0),
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CXML2", path: "Sources/CXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        // libzip linked, for the tests and the fuzzer that write archives. The product opens it on first use (CLibZip).
        .systemLibrary(name: "CZip", path: "Sources/CZip", pkgConfig: "libzip",
                       providers: [.apt(["libzip-dev"])]),
        // libzip's header (libzip-dev) with the library itself opened on first use, like CCurl.
        .target(name: "CLibZip", dependencies: ["CLazyLibrary"], path: "Sources/CLibZip"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])]),
        // The loader libcurl, libzip, libdbus, libmicrohttpd and libsecret share: dlopen on first use (the first of
        // a library's sonames that opens), a table of functions, one sentence saying what is missing and which Debian
        // package brings it. Static, so the plugins that read ZIP (through CLibZip) keep a copy of their own.
        .target(name: "CLazyLibrary", path: "Sources/CLazyLibrary", linkerSettings: [.linkedLibrary("dl")]),
        // libdbus's headers (libdbus-1-dev) with the library itself opened on first use, like CCurl. A C target
        // cannot use pkg-config: these are `pkg-config --cflags dbus-1`, with arm64's folder beside x86-64's.
        // Only CDBus's own C file reads them; CDBus.h, which Swift imports, needs none.
        .target(name: "CDBus", dependencies: ["CLazyLibrary"], path: "Sources/CDBus",
                cSettings: [.unsafeFlags(["-I/usr/include/dbus-1.0", "-I/usr/lib/x86_64-linux-gnu/dbus-1.0/include",
                                          "-I/usr/lib/aarch64-linux-gnu/dbus-1.0/include"])]),
        // The HTTP server under `shelf serve`: libmicrohttpd's headers (libmicrohttpd-dev) with the library itself
        // opened on first use, like CCurl (its GnuTLS would cost every command ~20 ms before main).
        .target(name: "CMicroHTTPD", dependencies: ["CLazyLibrary"], path: "Sources/CMicroHTTPD"),
        // libsecret (Debian's libsecret-1-0), opened on first use like libdbus: its types are declared in the C file.
        .target(name: "CSecret", dependencies: ["CLazyLibrary"], path: "Sources/CSecret"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // The wire between shelf and an out-of-process plugin: one framing for both ends.
        .target(name: "CPluginChannel", path: "Sources/CPluginChannel"),
        // libseccomp, for the filter that refuses socket() to out-of-process plugins.
        .systemLibrary(name: "CSeccomp", path: "Sources/CSeccomp", pkgConfig: "libseccomp",
                       providers: [.apt(["libseccomp-dev"])]),
        // shelf-plugin-sandbox: one plugin in a confined process of its own (Landlock, seccomp), answering shelf's
        // calls over the channel; for the plugins shelf does not ship (PluginPlacement).
        .executableTarget(name: "shelf-plugin-sandbox", dependencies: ["CPluginChannel", "PluginAPI", "CSeccomp"],
                          path: "Sources/PluginSandbox", linkerSettings: [.linkedLibrary("dl")]),

        // Ctrl-C: a handler that only sets a sig_atomic_t (and _exit(130) on a second one), polled by the host.
        .target(name: "CInterrupt", path: "Sources/CInterrupt"),

        // libcurl's headers (libcurl4-openssl-dev) with the library itself opened on first use.
        .target(name: "CCurl", dependencies: ["CLazyLibrary"], path: "Sources/CCurl"),

        // The public contract: plain C99 headers, nothing else a plugin author needs. Beside them, the C
        // helper library for plugin authors (lib/) and the stand-in host (host/), built by their Makefile.
        .target(name: "PluginAPI", path: "Sources/PluginAPI", exclude: ["plugin.map", "lib", "host", "Makefile"]),
        // libshelf-plugin (lib/) as the Makefile builds it, for the plugins shelf ships in C (Speech).
        .target(name: "PluginHelper", dependencies: ["PluginAPI"], path: "Sources/PluginAPI/lib", exclude: ["tests"]),

        // The one streaming XML reader (libxml2's SAX2), shared by the host's catalog reader and the EPUB plugins.
        .target(name: "XMLText", dependencies: ["CXML2"], path: "Sources/XMLText"),
        // The one text folding for matching: book search, page search and quotes, reading lists.
        .target(name: "TextFolding", path: "Sources/TextFolding"),
        // Zip archives read with libzip under shelf's limits, for the host's sniffing and the plugins' books alike.
        .target(name: "LibZip", dependencies: ["CLibZip"], path: "Sources/LibZip"),
        // Swift helpers for writing plugins (C-ABI adapters, zip, XML). Plugins only.
        .target(name: "PluginKit", dependencies: ["PluginAPI", "Readium", "ConnectorShapes", "LibZip", "CXML2"], path: "Sources/PluginKit"),
        // The Readium shapes (manifest, link, locator) both sides of the ABI read and write, with their JSON.
        .target(name: "Readium", path: "Sources/Readium"),
        // The reading-list connector ABI's entry (readinglist.h), which both sides of the ABI read and write.
        .target(name: "ConnectorShapes", path: "Sources/ConnectorShapes"),
        // Container and package parsing shared by the EPUB2 and EPUB3 plugins.
        .target(name: "EPUBCore", dependencies: ["PluginKit", "LibZip", "XMLText", "TextFolding", "CXML2"], path: "Plugins/EPUBCore"),

        // The values every front end and the subsystems share without their behaviour (playback's state, events, times,
        // chapters, the sleep timer's setting): the facade re-exports them, and imports the subsystems internally.
        .target(name: "ShelfValues", dependencies: ["Readium", "ConnectorShapes"], path: "Sources/ShelfValues"),
        // The host's core: errors, folders, the environment, SQLite. No domain types; everything else builds on it.
        .target(name: "ShelfCore", dependencies: ["ShelfValues", "CSQLite", "CCurl", "CInterrupt", "CSecret"], path: "Sources/ShelfCore"),
        // Plugins: finding, loading (in process or in shelf-plugin-sandbox), the registry, routing by media type,
        // publications, reading-list connectors and conformance. Knows the core, never the library or the reader.
        .target(name: "ShelfPlugins", dependencies: ["ShelfValues", "ShelfCore", "PluginAPI", "CPluginChannel", "Readium", "ConnectorShapes", "LibZip", "TextFolding", "CXML2"],
                path: "Sources/ShelfPlugins"),
        // Playback: the engine (decoding through the audiobook plugin, time-stretch, chapters, sleep timer, volume)
        // and its sinks. Knows the plugins and the core; where the place is kept is handed to it from above.
        .target(name: "ShelfPlayback", dependencies: ["ShelfValues", "ShelfCore", "ShelfPlugins", "PluginAPI", "Readium", "XMLText", "CXML2"],
                path: "Sources/ShelfPlayback"),
        // The library: the one database file and its migrations, accounts, catalogs (OPDS), circulation, notifications,
        // reading lists and the wish list, downloads. Knows playback, the plugins and the core, never the reader or the host.
        .target(name: "ShelfLibrary", dependencies: ["ShelfValues", "ShelfCore", "ShelfPlugins", "ShelfPlayback", "PluginAPI", "Readium", "ConnectorShapes", "CSQLite", "XMLText", "TextFolding", "CXML2", "CDBus"],
                path: "Sources/ShelfLibrary"),
        // The reader: books on the shelf, reading sessions, bookmarks, settings, sharing, the listening place, and
        // annotation sync. Knows the library (downloads, loans, the database) and what is below it, never the host.
        .target(name: "ShelfReader", dependencies: ["ShelfValues", "ShelfCore", "ShelfPlugins", "ShelfPlayback", "ShelfLibrary", "PluginAPI", "Readium", "TextFolding"],
                path: "Sources/ShelfReader"),
        // The host: the session API (the facade) every front end calls, over the reader and the library.
        .target(name: "Host", dependencies: ["ShelfValues", "ShelfCore", "ShelfPlugins", "ShelfPlayback", "ShelfLibrary", "ShelfReader", "Readium", "ConnectorShapes", "PluginAPI", "TextFolding"], path: "Sources/Host"),
        .executableTarget(name: "shelf", dependencies: ["Host", "Web"], path: "Sources/shelf", swiftSettings: frontEndSettings),
        // `shelf serve`: the browser app's server, its security and JSON API (the front end itself is in web/).
        .target(name: "Web", dependencies: ["CMicroHTTPD", "Host"], path: "Sources/Web", swiftSettings: frontEndSettings),
        // `make bench`: the plugin ABI's cost against direct calls (links EPUBCore directly, on purpose).
        .executableTarget(name: "shelf-bench", dependencies: ["Host", "ShelfPlugins", "ShelfCore", "EPUBCore", "PluginKit"], path: "Benchmarks/ABIBench"),
        // `make bench`: Readium's JSON reader and writer against JSONDecoder/JSONEncoder on a book's documents.
        .executableTarget(name: "shelf-json-bench", dependencies: ["EPUBCore", "Readium"], path: "Benchmarks/JSONBench"),
        .executableTarget(name: "shelf-catalog-bench", dependencies: ["Host", "ShelfLibrary", "ShelfCore"], path: "Benchmarks/CatalogBench"),
        .executableTarget(name: "shelf-lists-bench", dependencies: ["Host", "ShelfLibrary", "ShelfPlugins"], path: "Benchmarks/ListsBench"),
        // Coverage-guided fuzzing of the EPUB parsers (`bash Fuzz/run.sh`); a plain build replays saved inputs.
        .executableTarget(name: "shelf-fuzz-epub", dependencies: ["EPUBCore", "PluginKit", "CZip"], path: "Fuzz/EPUBFuzz"),

        // Test-only helpers: the loopback HTTP server with fault injection, temporary homes, corpus paths.
        .target(name: "TestSupport", dependencies: [], path: "Tests/TestSupport"),
        .testTarget(name: "HostTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlayback", "ShelfPlugins", "ShelfCore", "TestSupport", "CZip", "XMLText", "TextFolding", "CLazyLibrary"], path: "Tests/HostTests"),
        .testTarget(name: "EPUBTests", dependencies: ["EPUBCore", "PluginKit", "LibZip", "CZip", "TestSupport"], path: "Tests/EPUBTests"),
        .testTarget(name: "AudiobookTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlayback", "ShelfCore", "TestSupport"], path: "Tests/AudiobookTests"),
        .testTarget(name: "CatalogTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfCore", "TestSupport"], path: "Tests/CatalogTests"),
        .testTarget(name: "NotificationTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "TestSupport", "CDBus"], path: "Tests/NotificationTests"),
        .testTarget(name: "ReadingListTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlugins", "TestSupport", "CCrypto", "ReadingListFakes"], path: "Tests/ReadingListTests"),
        // The fake Google Books and Goodreads (their wire formats on loopback), for ReadingListTests and, as a process
        // of their own, for the browser tests (Tests/Browser).
        .target(name: "ReadingListFakes", dependencies: ["TestSupport", "CCrypto"], path: "Tests/ReadingListFakes"),
        .executableTarget(name: "shelf-fake-reading-lists", dependencies: ["ReadingListFakes", "TestSupport"], path: "Tests/FakeReadingListServer"),
        .testTarget(name: "BookshelfTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlayback", "TestSupport", "CZip"], path: "Tests/BookshelfTests"),
        // The fake library as a process of its own, for the browser tests (Tests/Browser).
        .executableTarget(name: "shelf-fake-library", dependencies: ["TestSupport"], path: "Tests/FakeLibraryServer"),
        // The second writer of LibraryDatabaseTests' two-process test, as a program of its own.
        .executableTarget(name: "shelf-database-writer", dependencies: ["ShelfLibrary", "ShelfValues"], path: "Tests/DatabaseWriter"),
        .testTarget(name: "WebTests", dependencies: ["Web", "TestSupport"], path: "Tests/WebTests"),
        // Plugins out of process: crashes, exits, hangs, confinement (C fixtures in Fixtures/, built by the tests).
        .testTarget(name: "SandboxTests", dependencies: ["Host", "Web", "TestSupport"], path: "Tests/SandboxTests", exclude: ["Fixtures"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlugins", "TestSupport"], path: "Tests/IntegrationTests"),
        // Man pages, shell completions, desktop files and the Debian package (packaging/).
        .testTarget(name: "PackagingTests", dependencies: ["Host", "ShelfLibrary", "ShelfReader", "ShelfPlugins", "TestSupport"], path: "Tests/PackagingTests"),
    ] + plugins.map(\.1)
)

// The product compiles in the Swift 6 language mode (complete concurrency checking). Test code (XCTest cases,
// the loopback servers and terminal rigs in TestSupport) stays in the Swift 5 mode: XCTest's own API is not yet
// annotated for Sendable on Linux, and what the tests drive is the product, which is checked.
for target in package.targets where target.isTest || target.path?.hasPrefix("Tests/") == true {
    target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v5)]
}
