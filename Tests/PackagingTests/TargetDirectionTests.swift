import Foundation
import TestSupport
import XCTest

/// The host's subsystems are targets with one-way dependencies (docs/architecture.md): the core knows nothing
/// above it, plugins know the core, playback knows plugins and the core, the library knows playback and what is
/// below it, the reader knows the library and what is below it, and only the facade (`Host`) knows them all. SwiftPM refuses a cycle in Package.swift, but a file can still import a module its target does not declare
/// when an earlier build left that module on disk; and `@_exported` in the facade would hand a subsystem to every
/// front end. This reads the sources, so either fails here with the file and line.
final class TargetDirectionTests: XCTestCase {
    /// Each subsystem target's folder and the modules above it, which it must never import.
    static let above: [(folder: String, modules: Set<String>)] = [
        (
            "Sources/ShelfValues",
            ["ShelfCore", "ShelfPlugins", "ShelfPlayback", "ShelfLibrary", "ShelfReader", "Host", "Web"]
        ),
        ("Sources/ShelfCore", ["ShelfPlugins", "ShelfPlayback", "ShelfLibrary", "ShelfReader", "Host", "Web"]),
        ("Sources/ShelfPlugins", ["ShelfPlayback", "ShelfLibrary", "ShelfReader", "Host", "Web"]),
        ("Sources/ShelfPlayback", ["ShelfLibrary", "ShelfReader", "Host", "Web"]),
        ("Sources/ShelfLibrary", ["ShelfReader", "Host", "Web"]),
        ("Sources/ShelfReader", ["Host", "Web"])
    ]
    static let subsystems: Set<String> = ["ShelfCore", "ShelfPlugins", "ShelfPlayback", "ShelfLibrary", "ShelfReader"]

    func testNoSubsystemImportsOneAboveIt() throws {
        var found: [String] = []
        for (folder, modules) in Self.above {
            for (name, number, module, _) in try Self.imports(in: folder) where modules.contains(module) {
                found.append("\(name):\(number): imports \(module), which is above it")
            }
        }
        XCTAssertEqual(found, [], "a dependency points the wrong way:\n" + found.joined(separator: "\n"))
    }

    func testTheFacadeReexportsNoSubsystem() throws {
        let found = try Self.imports(in: "Sources/Host")
            .filter { Self.subsystems.contains($0.module) && $0.line.contains("@_exported") }
            .map { "\($0.file):\($0.number): \($0.line)" }
        XCTAssertEqual(found, [], "the facade hands a subsystem to every front end:\n" + found.joined(separator: "\n"))
    }

    /// The subsystems the facade imports `internal`ly, so that the compiler refuses a public session call whose
    /// signature names one of their types (an engine, a sink, a publication, the plugin registry): a front end then
    /// gets only the session API and the shared values (ShelfValues, Readium). A plain `import` would be public by
    /// default and let them through.
    static let importedInternally: Set<String> = subsystems

    func testTheFacadeImportsTheseSubsystemsInternally() throws {
        let found = try Self.imports(in: "Sources/Host")
            .filter { Self.importedInternally.contains($0.module) && !$0.line.hasPrefix("internal import ") }
            .map { "\($0.file):\($0.number): \($0.line)" }
        XCTAssertEqual(found, [], "the facade imports a subsystem publicly:\n" + found.joined(separator: "\n"))
    }

    /// An internal import hides a subsystem's types, but Swift still finds the members it declares on a type the front
    /// end can name (the core's extensions on the folders' value, say) through any import in the program; the front
    /// ends are compiled with MemberImportVisibility, which refuses those unless the file imports the module itself.
    func testTheFrontEndsSeeOnlyTheMembersOfWhatTheyImport() throws {
        let manifest = try String(
            contentsOf: ShelfProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("let frontEndSettings")
                    && $0.contains(".enableUpcomingFeature(\"MemberImportVisibility\")")
            },
            "frontEndSettings in Package.swift no longer turns MemberImportVisibility on")
        for target in ["shelf", "Web"] {
            let declaration = lines.first { $0.lowercased().contains("target(name: \"\(target.lowercased())\"") }
            XCTAssertTrue(
                declaration?.contains("swiftSettings: frontEndSettings") == true,
                "the \(target) target is not compiled with frontEndSettings: \(declaration ?? "not found")")
        }
    }

    /// The targets both the host and the plugins link (XML reading, text folding, zip) stay below both: a plugin
    /// must never link the host, and the host never links a plugin.
    func testTheSharedTargetsImportNothingOfTheHostOrThePlugins() throws {
        let forbidden: Set<String> = Self.subsystems.union(["Host", "Web", "PluginKit", "EPUBCore", "ShelfValues"])
        var found: [String] = []
        for folder in [
            "Sources/XMLText", "Sources/TextFolding", "Sources/LibZip", "Sources/Readium", "Sources/ConnectorShapes"
        ] {
            for (name, number, module, _) in try Self.imports(in: folder) where forbidden.contains(module) {
                found.append("\(name):\(number): imports \(module)")
            }
        }
        XCTAssertEqual(found, [], "a shared target depends on one side:\n" + found.joined(separator: "\n"))
    }

    /// The facade's dependencies in Package.swift are the modules its files import, no more (a declared dependency
    /// nobody imports only lengthens the build and hides what the facade really knows) and no less (an import of an
    /// undeclared module works only while another target happens to build it first).
    func testTheFacadeDeclaresWhatItImportsAndNothingElse() throws {
        let manifest = try String(
            contentsOf: ShelfProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let line = try XCTUnwrap(
            manifest.split(separator: "\n").first { $0.contains(".target(name: \"Host\", dependencies: [") },
            "no Host target line in Package.swift")
        let list = line.split(separator: "[", maxSplits: 1)[1].split(separator: "]", maxSplits: 1)[0]
        let declared = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces.union(["\""])) })
        let system: Set<String> = ["Foundation", "Glibc", "Synchronization", "Dispatch"]
        let imported = Set(try Self.imports(in: "Sources/Host").map(\.module)).subtracting(system)
        XCTAssertEqual(
            declared.subtracting(imported).sorted(), [], "Host declares dependencies none of its files imports")
        XCTAssertEqual(
            imported.subtracting(declared).sorted(), [], "Host's files import modules Package.swift does not declare")
    }

    /// `Readium` holds Readium's shapes (RWPM manifest, link, locator) and their JSON, nothing else: a shape of another
    /// ABI (the reading-list connectors' entry) or a value of shelf's own belongs in its own target.
    func testReadiumHoldsOnlyReadiumsShapes() throws {
        let shapes: Set<String> = [
            "Manifest", "Link", "Locator", "JSONValue", "ReadiumJSON", "JSONWritable", "JSONError", "JSONReader",
            "JSONWriter"
        ]
        let root = ShelfProcess.packageRoot.appendingPathComponent("Sources/Readium")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: root.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            // Top-level declarations only: a shape's nested types (a locator's `Locations`) are part of it.
            for line in text.split(separator: "\n") where line.first != " " {
                let words = line.split(separator: " ")
                guard words.first == "public", words.count > 2,
                    ["struct", "enum", "class", "protocol", "final"].contains(words[1])
                else { continue }
                let name = String(words[words[1] == "final" ? 3 : 2].prefix { $0.isLetter || $0.isNumber })
                if !shapes.contains(name) { found.append("Sources/Readium/\(file): \(name)") }
            }
        }
        XCTAssertEqual(found, [], "not a Readium shape:\n" + found.joined(separator: "\n"))
    }

    /// One streaming XML reader (issue 31): the catalog and the EPUB plugins each had a copy of `XMLStream`, its
    /// handler, its names and its attributes, which had drifted (limits, refusals, attribute lookup).
    func testOneXMLStream() throws {
        let declarations = ["XMLStream", "XMLStreamHandler", "XMLAttributes", "XMLName", "XMLNames", "XMLStreamState"]
        var places: [String: [String]] = [:]
        for folder in ["Sources", "Plugins"] {
            let root = ShelfProcess.packageRoot
            let walker = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = walker?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                for declaration in declarations
                where text.range(
                    of: "(enum|struct|class|protocol) \(declaration)\\b", options: .regularExpression) != nil
                {
                    places[declaration, default: []].append(
                        file.path.replacingOccurrences(of: root.path + "/", with: ""))
                }
            }
        }
        for declaration in declarations {
            XCTAssertEqual(
                places[declaration]?.map { $0.hasPrefix("Sources/XMLText/") }, [true],
                "`\(declaration)` is declared in \(places[declaration] ?? []), not once in Sources/XMLText")
        }
    }

    /// `swift build -c release` (`make bench`, `make deb`) compiles every target but the test targets without
    /// testability, so an `@testable import` outside a test target builds in debug and breaks the release build.
    func testOnlyTestTargetsImportForTesting() throws {
        let manifest = try String(
            contentsOf: ShelfProcess.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var folders: [String] = []
        for line in manifest.split(separator: "\n") where !line.contains(".testTarget(") {
            guard let path = line.range(of: "path: \"") else { continue }
            folders.append(String(line[path.upperBound...].prefix { $0 != "\"" }))
        }
        XCTAssertGreaterThan(folders.count, 10, "Package.swift's target paths were not found")
        // The plugins' targets are declared in a loop (`Plugins/\(name)`): each folder of Plugins is one.
        let plugins = try FileManager.default.contentsOfDirectory(
            atPath: ShelfProcess.packageRoot.appendingPathComponent("Plugins").path)
        folders = folders.filter { !$0.contains("\\(") } + plugins.map { "Plugins/" + $0 }
        var found: [String] = []
        for folder in folders where Self.holdsSwift(folder) {
            for i in try Self.imports(in: folder) where i.line.contains("@testable") {
                found.append("\(i.file):\(i.number): \(i.line)")
            }
        }
        XCTAssertEqual(found, [], "@testable outside a test target:\n" + found.joined(separator: "\n"))
    }

    static func holdsSwift(_ folder: String) -> Bool {
        let walker = FileManager.default.enumerator(
            at: ShelfProcess.packageRoot.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        while let file = walker?.nextObject() as? URL {
            if file.pathExtension == "swift" { return true }
        }
        return false
    }

    /// Every import line under `folder`: the file (from the package root), line number, module and the line itself.
    static func imports(in folder: String) throws -> [(file: String, number: Int, module: String, line: String)] {
        let root = ShelfProcess.packageRoot
        let url = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        var result: [(String, Int, String, String)] = []
        var files = 0
        for case let file as URL in walker where file.pathExtension == "swift" {
            files += 1
            let name = file.path.replacingOccurrences(of: root.path + "/", with: "")
            for (index, line) in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                .enumerated()
            {
                let words = line.split(separator: " ").map(String.init)
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                    words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
                else { continue }
                result.append((name, index + 1, words[at + 1], line))
            }
        }
        XCTAssertGreaterThan(files, 0, "no Swift sources were found under \(url.path)")
        return result
    }
}
