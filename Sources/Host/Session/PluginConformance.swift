import Foundation
internal import ShelfPlugins

/// `shelf conformance`: the conformance suite run on a plugin library, each check in a child process of the shelf
/// program (`shelf conformance-check`, which calls `runCheck` in that child), with the Shelf's environment (the
/// children's; PATH and SHELF_PLUGIN_HOST for memcheck). A value: safe to use from any thread.
public struct PluginConformance: Sendable {
    /// One check: its name (for `--check`) and what it checks, in words.
    public struct Check: Sendable, Equatable {
        public let name: String
        public let summary: String
    }

    /// Every check, in the order they run.
    public static var checks: [Check] { ConformanceChecks.all.map { Check(name: $0.name, summary: $0.summary) } }

    /// Seconds a check may take before it counts as hung.
    public var timeout: TimeInterval
    /// Each check under valgrind (slow; valgrind must be installed).
    public var memcheck: Bool
    /// A connector's settings (`--set KEY=VALUE`, or `SERVICE.KEY=VALUE` for one service) and secrets (`--secret KEY`
    /// or `SERVICE.KEY`), for the checks that configure it.
    public var settings: [String: String]
    public var secrets: [String: String]
    /// The one connector service to check (`--service NAME`); nil checks each.
    public var service: String?
    let environment: [String: String]

    public init(
        shelf: Shelf, timeout: TimeInterval = 30, memcheck: Bool = false, settings: [String: String] = [:],
        secrets: [String: String] = [:], service: String? = nil
    ) {
        environment = shelf.environment
        self.timeout = timeout
        self.memcheck = memcheck
        self.settings = settings
        self.secrets = secrets
        self.service = service
    }

    /// Runs the checks (`only` those named, or all) on the library at `plugin` with the sample files given.
    public func run(plugin: String, samples: [String], only: [String]? = nil) -> ConformanceReport {
        ConformanceRunner(
            environment: environment, timeout: timeout, memcheck: memcheck, settings: settings, secrets: secrets,
            service: service
        )
        .run(plugin: plugin, samples: samples, only: only)
    }

    /// The child's side: runs one check in this process (its results written where SHELF_CONFORMANCE_RESULT says): one,
    /// or one for each connector service it checked.
    public static func runCheck(
        _ check: String, pluginPath: String, samples: [String], settings: [String: String],
        service: String? = nil, in shelf: Shelf
    ) -> [ConformanceResult] {
        ConformanceChecks.runAsChild(
            check: check, pluginPath: pluginPath, samples: samples, settings: settings, service: service,
            environment: shelf.environment)
    }
}
