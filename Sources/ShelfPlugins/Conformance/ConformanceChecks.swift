import ShelfValues
import ShelfCore
import Foundation
import PluginAPI
import Readium

/// The checks of `shelf conformance`. Each runs inside a child process (see ConformanceRunner) so a plugin
/// that crashes or hangs fails that check only. Every call into the plugin goes through `Subject.call`, which
/// names the call and its input in any failure: the message says what to look at.
public enum ConformanceChecks {
    public struct Check: Sendable {
        public let name: String
        public let summary: String
        /// Needs a format plugin; connectors skip it.
        let formatOnly: Bool
        let run: @Sendable (Subject) throws -> ConformanceResult.Status
    }

    /// What a check works on: the plugin, loaded and initialised, and the samples. A check runs on one thread;
    /// the one check that calls from several threads (concurrent handles) reads only the constant members, and
    /// `notes` is written on the check's own thread — hence unchecked.
    final class Subject: @unchecked Sendable {
        let plugin: LoadedPlugin
        let samples: [String]
        let scratch: String
        /// A connector's settings as given (`--set KEY=VALUE` for every service, `--set SERVICE.KEY=VALUE` for one).
        let givenSettings: [String: String]
        /// A connector's secrets (`--secret KEY` or `--secret SERVICE.KEY`), stored for it in the check's own
        /// credentials folder.
        let givenSecrets: [String: String]
        /// The one service to check (`--service NAME`); nil for each service of the plugin.
        let service: String?
        var notes: [String] = []
        /// A connector check's result for each service, when it checked them one by one (`eachService`).
        var serviceResults: [(service: String, status: ConformanceResult.Status, message: String)] = []

        init(
            plugin: LoadedPlugin, samples: [String], scratch: String, settings: [String: String] = [:],
            secrets: [String: String] = [:],
            service: String? = nil
        ) {
            self.plugin = plugin
            self.samples = samples
            self.scratch = scratch
            givenSettings = settings
            givenSecrets = secrets
            self.service = service
        }

        func note(_ text: String) { notes.append(text) }

        /// The settings and secrets given to one service (ServiceSettings).
        func settings(for service: String) -> [String: String] {
            ServiceSettings(given: givenSettings, services: plugin.descriptor.services).of(service)
        }

        func secrets(for service: String) -> [String: String] {
            ServiceSettings(given: givenSecrets, services: plugin.descriptor.services).of(service)
        }

        /// The services to check: the one `--service` names, or each the plugin lists.
        func chosenServices() throws -> [String] {
            let listed = plugin.descriptor.services
            guard let service else { return listed }
            guard listed.contains(service) else {
                throw CheckFailure(
                    "--service \(service): the plugin lists no such service (it lists \(listed.isEmpty ? "none" : listed.joined(separator: ", ")))"
                )
            }
            return [service]
        }

        /// Runs `body` on each chosen service, each with notes of its own, and keeps a result for each: a service
        /// that fails does not hide how the next one does.
        func eachService(_ body: (String) throws -> ConformanceResult.Status) throws -> ConformanceResult.Status {
            let plugin = notes
            for service in try chosenServices() {
                notes = []
                do {
                    let status = try body(service)
                    serviceResults.append((service, status, notes.joined(separator: "; ")))
                } catch {
                    serviceResults.append((service, .failed, (notes + ["\(error)"]).joined(separator: "; ")))
                }
            }
            notes = plugin
            return serviceResults.contains { $0.status == .failed } ? .failed : .passed
        }

        var format: UnsafePointer<shelf_format_v1> { plugin.format! }

        /// One call into the plugin, named for crash reports and failures: "render(chapter-2.md, {...}) of book.txt".
        func call<T>(_ description: String, _ body: () throws -> T) throws -> T {
            try ConformanceCall.run(description, body)
        }

        /// The samples, or a failure saying how to give one.
        func requireSamples() throws -> [String] {
            guard !samples.isEmpty else {
                throw CheckFailure("no sample to open: pass --sample FILE with a book this plugin opens")
            }
            return samples
        }

        /// Opens each sample through the host's normal path. A sample that does not open is the `open`
        /// check's failure; the other checks say they could not run rather than repeat it.
        func openSamples() throws -> [Publication] {
            return try requireSamples().map { path in
                do {
                    return try call("open(\(Self.name(path))) and manifest") {
                        try Publication(plugin: plugin, input: try PublicationInput(path: path))
                    }
                } catch let failure as CheckFailure {
                    throw failure
                } catch {
                    throw SampleDidNotOpen("\(Self.name(path)) did not open (see the open check): \(error)")
                }
            }
        }

        func file(_ name: String, _ bytes: [UInt8]) -> String {
            let path = scratch + "/" + name
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            return path
        }

        static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
    }

    struct CheckFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A check that needs the samples open cannot run when one does not: skipped, the open check says why.
    struct SampleDidNotOpen: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    public static let all: [Check] = [
        Check(
            name: "load", summary: "the library loads and shelf_plugin_entry returns a valid descriptor",
            formatOnly: false
        ) { s in
            s.note(
                "\(s.plugin.descriptor.id) \(s.plugin.descriptor.version), ABI \(s.plugin.descriptor.abiMajor).\(s.plugin.descriptor.abiMinor)"
            )
            return .passed
        },
        Check(
            name: "descriptor", summary: "descriptor fields, sizes, version and lists are well-formed",
            formatOnly: false, run: LoadChecks.descriptor),
        Check(
            name: "exports", summary: "only shelf_plugin_entry is exported", formatOnly: false, run: LoadChecks.exports),
        Check(
            name: "extensions", summary: "capability vtables are complete and stable", formatOnly: false,
            run: LoadChecks.extensions),
        Check(
            name: "probe", summary: "probe answers on empty and random bytes, and claims no other format's files",
            formatOnly: true, run: InputChecks.probe),
        Check(
            name: "open-errors", summary: "open refuses missing, empty, random and truncated input with a message",
            formatOnly: true, run: InputChecks.openErrors),
        Check(
            name: "open-foreign",
            summary: "open survives well-formed files of other formats (XML, HTML, JSON, PDF, ...)", formatOnly: true,
            run: InputChecks.openForeign),
        Check(
            name: "open", summary: "each sample opens and yields a valid Readium manifest", formatOnly: true,
            run: PublicationChecks.open),
        Check(
            name: "resources", summary: "every reading-order resource can be read; unknown hrefs are not found",
            formatOnly: true, run: PublicationChecks.resources),
        Check(
            name: "render",
            summary:
                "every reading-order item renders as text and as well-formed XHTML, `where` at the position asked for",
            formatOnly: true, run: PublicationChecks.render),
        Check(
            name: "locators",
            summary: "positions are numbered, spaced and progress as format.h says, and survive a round trip",
            formatOnly: true, run: PublicationChecks.locators),
        Check(
            name: "search", summary: "search finds words that are in the book, in any case, and nothing that is not",
            formatOnly: true, run: PublicationChecks.search),
        Check(
            name: "arguments",
            summary: "malformed JSON arguments (trailing commas, wrong types) are refused with a message",
            formatOnly: true, run: PublicationChecks.arguments),
        Check(
            name: "close", summary: "handles open and close repeatedly without keeping memory", formatOnly: true,
            run: PublicationChecks.close),
        Check(
            name: "threads", summary: "separate handles work from separate threads", formatOnly: true,
            run: PublicationChecks.threads),
        Check(
            name: "sandbox",
            summary:
                "each sample opens and renders in shelf-plugin-sandbox, confined, as shelf runs a plugin it does not ship",
            formatOnly: true, run: SandboxCheck.run),
        Check(
            name: "speech-voices", summary: "voices lists at least one voice with its languages, the same each time",
            formatOnly: false, run: SpeechChecks.voices),
        Check(
            name: "speech",
            summary:
                "speak gives PCM as declared, in proportion to the words, with word and sentence marks in order and inside the text",
            formatOnly: false, run: SpeechChecks.speak),
        Check(
            name: "speech-arguments", summary: "speak refuses malformed options and an unknown voice with a message",
            formatOnly: false, run: SpeechChecks.arguments),
        Check(
            name: "speech-cancel",
            summary: "speak stops at once when its sink or the host cancels, and calls the sink no more",
            formatOnly: false, run: SpeechChecks.cancel),
        Check(
            name: "connector",
            summary:
                "services match shelf.readinglist/1; each service's capabilities JSON, settings and pull without credentials fail with a message",
            formatOnly: false, run: ConnectorConformance.check),
        Check(
            name: "connector-settings",
            summary:
                "each service given --set: connect, describe, a missing required setting named, pull twice alike, push twice adds nothing new",
            formatOnly: false, run: ConnectorServiceChecks.settings),
        Check(
            name: "connector-failures",
            summary:
                "each service given --set: a service answering 500, garbage or nothing makes pull fail with a message, in time (not applicable without HTTP)",
            formatOnly: false, run: ConnectorServiceChecks.failures),
        Check(
            name: "connector-cancel",
            summary:
                "each service given --set: a cancelled pull returns SHELF_E_CANCELLED promptly and sends nothing more (not applicable without HTTP)",
            formatOnly: false, run: ConnectorServiceChecks.cancel)
    ]

    /// The child side: runs one check in this process, with the crash channel and the watch on standard
    /// output set up, and writes the result where the runner asked (SHELF_CONFORMANCE_RESULT of `environment`, the
    /// child's Shelf's).
    public static func runAsChild(
        check name: String, pluginPath: String, samples: [String], settings: [String: String],
        service: String? = nil, environment: [String: String]
    ) -> [ConformanceResult] {
        ConformanceCall.begin(crashReport: environment["SHELF_CONFORMANCE_CRASH"])
        let secrets =
            environment["SHELF_CONFORMANCE_SECRETS"].flatMap { FileManager.default.contents(atPath: $0) }
            // Written by the runner a moment ago; were it unreadable, a check that needs a secret fails saying which.
            .flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
        let results = run(
            check: name, pluginPath: pluginPath, samples: samples, settings: settings, secrets: secrets,
            service: service)
        ConformanceCall.end()
        if let path = environment["SHELF_CONFORMANCE_RESULT"] {
            _ = FileManager.default.createFile(atPath: path, contents: Data(ReadiumJSON.encode(results).utf8))
        }
        return results
    }

    /// The folders a plugin loaded by a check is given: the check's own.
    static func directories(scratch: String) -> ShelfDirectories {
        ShelfDirectories(
            config: URL(fileURLWithPath: scratch + "/plugin-config"),
            data: URL(fileURLWithPath: scratch + "/plugin-data"),
            cache: URL(fileURLWithPath: scratch + "/plugin-cache"))
    }

    /// Runs one check in this process and returns its result: one, or one for each connector service it checked.
    static func run(
        check name: String, pluginPath: String, samples: [String], settings: [String: String] = [:],
        secrets: [String: String] = [:], service: String? = nil
    ) -> [ConformanceResult] {
        guard let check = all.first(where: { $0.name == name }) else {
            return [ConformanceResult(check: name, status: .failed, message: "no such check")]
        }
        // The plugin's data and cache folders are the check's own too: what a connector exports stays there.
        let scratch = NSTemporaryDirectory() + "/shelf-conformance-\(getpid())"
        // Scratch space: without it the plugin's own writes fail and the check says so; removing it is tidying.
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }  // tidying only, in the temporary folder
        let directories = Self.directories(scratch: scratch)
        // A plugin loaded here has no Shelf's store: in every check, not only the connector ones, its secrets go to
        // the check's scratch file, never to the patron's credentials or keyring.
        ConnectorServices.keepsSecretsInFile.store(true, ordering: .relaxed)
        ConnectorServices.credentialDirectories = directories
        let plugin: LoadedPlugin
        do {
            plugin = try ConformanceCall.run("shelf_plugin_entry and init") {
                let plugin = try LoadedPlugin(path: pluginPath)
                try plugin.initialise(directories: directories)
                return plugin
            }
        } catch {
            return [ConformanceResult(check: name, status: .failed, message: "\(error)")]
        }
        if check.formatOnly && !plugin.isFormatPlugin {
            return [
                ConformanceResult(
                    check: name, status: .skipped, message: "not a format plugin (it declares no media types)")
            ]
        }
        let subject = Subject(
            plugin: plugin, samples: samples, scratch: scratch, settings: settings, secrets: secrets, service: service)
        do {
            let status = try check.run(subject)
            if !subject.serviceResults.isEmpty {
                return subject.serviceResults.map {
                    ConformanceResult(check: name, service: $0.service, status: $0.status, message: $0.message)
                }
            }
            return [ConformanceResult(check: name, status: status, message: subject.notes.joined(separator: "; "))]
        } catch let notOpened as SampleDidNotOpen where name != "open" {
            return [ConformanceResult(check: name, status: .skipped, message: notOpened.description)]
        } catch {
            let message = (subject.notes + ["\(error)"]).joined(separator: "; ")
            return [ConformanceResult(check: name, status: .failed, message: message)]
        }
    }
}

/// A small deterministic generator, so that a failure on "random" bytes reproduces (the tests use it too).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
