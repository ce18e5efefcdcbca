import EPUBCore
import Foundation
import Host
import PluginKit
import Readium
import ShelfCore
import ShelfPlugins

// What one call through the plugin ABI costs: the same EPUB 3 operation made through the host
// (dlopen'd libshelf-epub3.so, C vtable, JSON across the boundary, decoded by the host) and made
// directly on the plugin's Swift types linked into this program. Prints figures; asserts nothing.

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: shelf-bench PLUGIN_DIR BOOK.epub [ITERATIONS]\n".utf8))
    exit(64)
}
let pluginDirectory = arguments[1], book = arguments[2]
let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000

func measure(_ label: String, _ n: Int, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<max(1, n / 20) { try body() }  // warm up caches and lazy state
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<n { try body() }
    let perCall = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n)
    return perCall
}

func report(_ name: String, abi: Double, direct: Double) {
    let figures = String(format: "through ABI %10.0f ns   direct %10.0f ns   ratio %6.2fx   overhead %9.0f ns",
                         abi, direct, abi / direct, abi - direct)
    print(name.padding(toLength: 26, withPad: " ", startingAt: 0) + figures)
}

do {
    let environment = ["SHELF_HOME": NSTemporaryDirectory() + "/shelf-bench"]
    let registry = PluginRegistry(searchPath: .standard(explicit: [pluginDirectory], environment: environment),
                                  directories: try ShelfDirectories(environment: environment), environment: environment)
    // A router without publication memos: every call below crosses the ABI, none is answered from the cache.
    let router = FormatRouter(registry: registry)
    let viaABI = try router.open(path: book)
    let direct = try EPUBPublication(path: book)
    print("book: \(book) via \(viaABI.plugin.descriptor.id) (\(viaABI.plugin.path)), \(iterations) iterations")

    let positions = try viaABI.positions()
    let target = positions[positions.count / 2]
    report("locate (Locator JSON)", abi: try measure("abi", iterations) { _ = try viaABI.locate(target) },
           direct: try measure("direct", iterations) { _ = try direct.locate(target) })

    let css = viaABI.manifest.resources?.first { $0.type == "text/css" }?.href ?? viaABI.manifest.readingOrder[0].href
    report("resource (bytes)", abi: try measure("abi", iterations) { _ = try viaABI.resource(css) },
           direct: try measure("direct", iterations) { _ = try direct.resource(href: css) })

    let few = max(10, iterations / 20)
    report("positions (whole book)", abi: try measure("abi", few) { _ = try viaABI.positions() },
           direct: try measure("direct", few) { _ = try direct.positions() })
    report("open + manifest", abi: try measure("abi", few) { _ = try router.open(path: book) },
           direct: try measure("direct", few) { _ = try EPUBPublication(path: book).manifest() })
} catch {
    FileHandle.standardError.write(Data("shelf-bench: \(error)\n".utf8))
    exit(1)
}
