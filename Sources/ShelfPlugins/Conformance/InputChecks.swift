import ShelfValues
import Foundation
import PluginAPI

/// The checks of what a format plugin does with inputs that are not its books: probing, and opening files
/// that are missing, empty, random, truncated or of another format.
enum InputChecks {
    typealias Subject = ConformanceChecks.Subject
    typealias CheckFailure = ConformanceChecks.CheckFailure

    static func probe(_ s: Subject) throws -> ConformanceResult.Status {
        var random = SplitMix(seed: 0x5EED)
        let router = FormatRouter(
            registry: PluginRegistry(searchPath: PluginSearchPath(entries: []), directories: nil, environment: [:]))
        let d = s.plugin.descriptor
        var status = ConformanceResult.Status.passed
        for (name, bytes) in [
            ("empty", [UInt8]()), ("random.bin", (0..<4096).map { _ in random.byte() }),
            ("zeros", [UInt8](repeating: 0, count: 2048))
        ] {
            let input = try PublicationInput(path: s.file(name, bytes))
            let confidence = try s.call("probe(\(name))") { router.probe(s.plugin, input) }
            if confidence > SHELF_PROBE_POSSIBLE {
                s.note("claims \(name) with confidence \(confidence)")
                status = .warning
            }
        }
        // A file of another format, well-formed, that the plugin does not declare: more than "possible" is a claim.
        for (name, input) in try ForeignInputs.files(for: d.mediaTypes, extensions: d.fileExtensions, in: s.scratch) {
            let confidence = try s.call("probe(\(name))") { router.probe(s.plugin, input) }
            if confidence > SHELF_PROBE_POSSIBLE {
                throw CheckFailure(
                    "probe(\(name), media type \(input.mediaType ?? "unknown")) answered \(confidence), but this plugin declares "
                        + "\((d.mediaTypes + d.fileExtensions.map { "." + $0 }).joined(separator: ", ")): a probe claims only what it "
                        + "checked is its format, and answers 0 for anything else (format.h)")
            }
        }
        return status
    }

    /// Calls open directly so that the status, the message and the out handle are all visible.
    static func rawOpen(_ s: Subject, path: String, input given: PublicationInput? = nil) throws -> (
        shelf_status, String
    ) {
        let input: PublicationInput
        if let given {
            input = given
        } else if FileManager.default.fileExists(atPath: path) {
            input = try PublicationInput(path: path)
        } else {
            input = try PublicationInput(path: s.file("placeholder", []))
        }
        var handle: OpaquePointer?
        var error = PluginCall.newError()
        let name = Subject.name(path)
        let status = try s.call("open(\(name))") {
            path.withCString { cPath in
                input.withCInput { base -> shelf_status in
                    var copy = base.pointee
                    copy.path = cPath
                    return s.format.pointee.open!(&copy, nil, &handle, &error)
                }
            }
        }
        let message = PluginCall.message(of: &error)
        if let handle {
            if status != SHELF_OK { throw CheckFailure("open(\(name)) failed but left a handle") }
            try s.call("close(the handle of \(name))") { s.format.pointee.close?(handle) }
        }
        return (status, message)
    }

    static func openErrors(_ s: Subject) throws -> ConformanceResult.Status {
        var random = SplitMix(seed: 0xBAD)
        var cases: [(String, String)] = [
            ("missing file", s.scratch + "/does-not-exist.book"),
            ("empty file", s.file("empty", [])),
            ("random bytes", s.file("random", (0..<8192).map { _ in random.byte() }))
        ]
        for sample in s.samples {
            if let data = FileManager.default.contents(atPath: sample), data.count > 1 {
                let ext = (sample as NSString).pathExtension
                cases.append(
                    (
                        "truncated \(Subject.name(sample))",
                        s.file("truncated." + ext, [UInt8](data.prefix(data.count / 2)))
                    ))
            }
        }
        for (what, path) in cases {
            let (status, message) = try rawOpen(s, path: path)
            if status == SHELF_OK {
                // Half a text file is still a text file; half an archive must not pass silently.
                if what.hasPrefix("truncated") {
                    s.note("\(what) opened (acceptable when the format survives truncation)"); continue
                }
                throw CheckFailure("open(\(Subject.name(path))), a \(what): succeeded")
            }
            if message.isEmpty {
                throw CheckFailure(
                    "open(\(Subject.name(path))), a \(what): failed with \(PluginCallError.name(of: status)) but no message"
                )
            }
            s.note("\(what): \(PluginCallError.name(of: status))")
        }
        return .passed
    }

    /// Well-formed files of other formats: open answers (a refusal with a message, or a publication whose
    /// manifest is valid); it never crashes or reads freed memory on them (the runner sets MALLOC_PERTURB_).
    static func openForeign(_ s: Subject) throws -> ConformanceResult.Status {
        let d = s.plugin.descriptor
        var refused = 0
        for (name, input) in try ForeignInputs.files(for: d.mediaTypes, extensions: d.fileExtensions, in: s.scratch) {
            let (status, message) = try rawOpen(s, path: input.path, input: input)
            if status == SHELF_OK {
                _ = try s.call("open(\(name)) and manifest") { try Publication(plugin: s.plugin, input: input) }
                s.note("\(name) opened")
            } else if message.isEmpty {
                throw CheckFailure("open(\(name)) failed with \(PluginCallError.name(of: status)) but no message")
            } else {
                refused += 1
            }
        }
        s.note("\(refused) refused with a message")
        return .passed
    }
}
