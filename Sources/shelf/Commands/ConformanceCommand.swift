import Foundation
import Host

let conformanceCommand = Command(
    name: "conformance", summary: "check a plugin against the ABI contract",
    usage: "shelf conformance PLUGIN.so [--sample FILE]... [--timeout SECONDS] [--json]",
    details: """
    Runs the conformance suite on any plugin library, without rebuilding shelf. Each check runs in a
    child process, so a crash or a hang is a failed check with its signal, not a dead suite. A format
    plugin needs at least one --sample it can open: without one, the open, render and locator checks
    fail. Results: passed, failed, crashed, skipped, warning. Exits 1 when any check failed or crashed.
    """,
    valueOptions: ["--sample", "--timeout"],
    positionals: 1...1
) { args, context in
    let plugin = args.positionals[0]
    guard FileManager.default.fileExists(atPath: plugin) else {
        throw ShelfError(.noInput, "no such plugin library", subject: plugin)
    }
    for sample in args.all("--sample") where !FileManager.default.fileExists(atPath: sample) {
        throw ShelfError(.noInput, "no such sample file", subject: sample)
    }
    let timeout = try args.int("--timeout", in: 1...3600) ?? 30
    let absolute = { (path: String) in path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path }
    let report = ConformanceRunner(timeout: TimeInterval(timeout)).run(plugin: absolute(plugin), samples: args.all("--sample").map(absolute))
    if context.json {
        Output.json(report)
    } else {
        Output.line("Conformance of \(plugin)")
        for r in report.results {
            let status = r.status.rawValue.uppercased().padding(toLength: 8, withPad: " ", startingAt: 0)
            Output.line("  \(status) \(r.check.padding(toLength: 12, withPad: " ", startingAt: 0)) \(r.message)")
        }
        let s = report.summary
        Output.line("\(s["passed"] ?? 0) passed, \((s["failed"] ?? 0) + (s["crashed"] ?? 0)) failed, \(s["skipped"] ?? 0) skipped, \(s["warning"] ?? 0) warnings")
    }
    return report.passed ? 0 : 1
}

/// The child side of one check; not for people (hidden from help).
let conformanceCheckCommand = Command(
    name: "conformance-check", summary: "run one conformance check (internal)",
    usage: "shelf conformance-check PLUGIN.so CHECK [--sample FILE]...",
    details: "Runs one check in this process and prints its result as one JSON line. Used by `shelf conformance`.",
    valueOptions: ["--sample"],
    positionals: 2...2,
    hidden: true
) { args, _ in
    let result = ConformanceChecks.run(check: args.positionals[1], pluginPath: args.positionals[0], samples: args.all("--sample"))
    Output.line(ReadiumJSON.encode(result))
    return 0
}
