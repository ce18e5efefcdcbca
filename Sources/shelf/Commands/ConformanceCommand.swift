import Foundation
import Host

let conformanceCommand = Command(
    name: "conformance", summary: "check a plugin against the ABI contract",
    usage:
        "shelf conformance PLUGIN.so [--sample FILE]... [--check NAME]... [--service NAME] [--set [SERVICE.]KEY=VALUE]... [--secret [SERVICE.]KEY]... [--memcheck] [--timeout SECONDS] [--json]\n"
        + "       shelf conformance --list",
    details: """
        Runs the conformance suite on any plugin library, without rebuilding shelf. Each check runs in a
        child process with glibc's MALLOC_PERTURB_ and MALLOC_CHECK_, so a crash, a hang or a use of freed
        memory is a failed check naming the call, its input and (for a crash) the backtrace, not a dead
        suite. A format plugin needs at least one --sample it can open; it is also fed well-formed files of
        other formats. --check runs the named checks only (--list names them all); --memcheck runs each check
        under valgrind (slow; valgrind must be installed). A connector is checked unconfigured, and with --set
        KEY=VALUE (its settings, e.g. a loopback fake of the service) and --secret KEY (a value read from standard
        input, one line each, kept in the checks' own scratch credentials) also configured: connect, describe,
        pull twice, push twice, a service that fails (HTTP 500, garbage, no answer) and cancellation.
        A connector's services are checked one by one, each with a result of its own: --set KEY=VALUE goes to
        every service, --set SERVICE.KEY=VALUE (and --secret SERVICE.KEY) to that service alone, and --service
        NAME checks that service only. A service whose pull makes no HTTP request (it reads a file) is "not
        applicable" to the failing-service and cancellation checks.
        Results: passed, failed, crashed, skipped, warning, not applicable. Exits 1 when any check failed or
        crashed.
        """,
    valueOptions: ["--sample", "--timeout", "--check", "--set", "--secret", "--service"],
    flagOptions: ["--list", "--memcheck"],
    positionals: 0...1
) { args, context in
    if args.has("--list") {
        if context.json {
            Output.json(PluginConformance.checks.map { ["check": $0.name, "summary": $0.summary] })
        } else {
            for check in PluginConformance.checks {
                Output.line("\(check.name.padding(toLength: 19, withPad: " ", startingAt: 0)) \(check.summary)")
            }
        }
        return 0
    }
    guard let plugin = args.positionals.first else {
        throw CommandUsage.conformanceNeedsPlugin.error
    }
    guard FileManager.default.fileExists(atPath: plugin) else {
        throw CommandLookup.noSuchFile(path: plugin, what: "plugin library").error
    }
    for sample in args.all("--sample") where !FileManager.default.fileExists(atPath: sample) {
        throw CommandLookup.noSuchFile(path: sample, what: "sample file").error
    }
    let known = PluginConformance.checks.map(\.name)
    for name in args.all("--check") where !known.contains(name) {
        throw CommandUsage.noCheck(name: name, known: known).error
    }
    let settings = try conformanceSettings(args.all("--set"))
    let timeout = try args.int("--timeout", in: 1...3600) ?? 30
    let absolute = { (path: String) in
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
    var secrets: [String: String] = [:]
    for key in args.all("--secret") {
        guard let value = readSecretLine(prompt: isatty(0) == 1 ? "\(key): " : nil), !value.isEmpty else {
            throw CommandUsage.noSecret(key: key).error
        }
        secrets[key] = value
    }
    let runner = PluginConformance(
        shelf: context.shelf, timeout: TimeInterval(timeout), memcheck: args.has("--memcheck"), settings: settings,
        secrets: secrets, service: args.value("--service"))
    let only = args.all("--check")
    let report = runner.run(
        plugin: absolute(plugin), samples: args.all("--sample").map(absolute), only: only.isEmpty ? nil : only)
    if context.json {
        Output.json(report)
    } else {
        Output.line("Conformance of \(plugin)")
        for r in report.results {
            let label = r.status == .notApplicable ? "N/A" : r.status.rawValue.uppercased()
            let status = label.padding(toLength: 8, withPad: " ", startingAt: 0)
            let service = r.service.map { "[\($0)] " } ?? ""
            Output.line(
                "  \(status) \(r.check.padding(toLength: 18, withPad: " ", startingAt: 0)) \(service)\(r.message)")
        }
        let s = report.summary
        let notApplicable = (s["not-applicable"] ?? 0) > 0 ? ", \(s["not-applicable"] ?? 0) not applicable" : ""
        Output.line(
            "\(s["passed"] ?? 0) passed, \((s["failed"] ?? 0) + (s["crashed"] ?? 0)) failed, \(s["skipped"] ?? 0) skipped\(notApplicable), "
                + Plural.count(s["warning"] ?? 0, "warning"))
    }
    return report.passed ? 0 : 1
}

/// "KEY=VALUE" settings for a connector ("SERVICE.KEY=VALUE" for one service: the suite tells them apart).
func conformanceSettings(_ assignments: [String]) throws -> [String: String] {
    var settings: [String: String] = [:]
    for assignment in assignments {
        guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
            throw CommandUsage.notAnAssignment(given: assignment).error
        }
        settings[String(assignment[..<eq])] = String(assignment[assignment.index(after: eq)...])
    }
    return settings
}

/// The child side of one check; not for people (hidden from help).
let conformanceCheckCommand = Command(
    name: "conformance-check", summary: "run one conformance check (internal)",
    usage: "shelf conformance-check PLUGIN.so CHECK [--sample FILE]... [--set KEY=VALUE]... [--service NAME]",
    details:
        "Runs one check in this process and writes its results where SHELF_CONFORMANCE_RESULT says. Used by `shelf conformance`.",
    valueOptions: ["--sample", "--set", "--service"],
    positionals: 2...2,
    hidden: true
) { args, context in
    let results = PluginConformance.runCheck(
        args.positionals[1], pluginPath: args.positionals[0], samples: args.all("--sample"),
        settings: try conformanceSettings(args.all("--set")), service: args.value("--service"),
        in: context.shelf)
    if context.shelf.environment["SHELF_CONFORMANCE_RESULT"] == nil { Output.line(ReadiumJSON.encode(results)) }
    return 0
}
