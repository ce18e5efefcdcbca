import Foundation
import PluginAPI
import ShelfCore

/// Every other check calls the plugin in this process, but shelf runs a plugin it does not ship in
/// shelf-plugin-sandbox, confined to the book file and its own folders (shelf-plugin(7), WHERE A PLUGIN RUNS): a plugin
/// that reads a file elsewhere, or opens a socket, passed them all and then failed for every patron. This check opens
/// each sample there, as shelf will, and renders its opening.
enum SandboxCheck {
    typealias CheckFailure = ConformanceChecks.CheckFailure

    static func run(_ s: ConformanceChecks.Subject) throws -> ConformanceResult.Status {
        let samples = try s.requireSamples()
        _ = try s.openSamples()  // a sample that does not open in process is the open check's to report
        let confined: LoadedPlugin
        do {
            confined = try LoadedPlugin(
                path: s.plugin.path, outOfProcess: PluginPlacement(environment: ProcessInfo.processInfo.environment))
            try confined.initialise(directories: ConformanceChecks.directories(scratch: s.scratch + "/sandbox"))
        } catch {
            throw CheckFailure(
                "the plugin does not start in shelf-plugin-sandbox, where shelf runs every plugin it does not ship: \(error)"
            )
        }
        for sample in samples {
            do {
                let publication = try Publication(plugin: confined, input: try PublicationInput(path: sample))
                if confined.capabilities.contains(SHELF_EXT_RENDER) {
                    _ = try publication.render(at: nil, settings: nil)
                }
            } catch {
                throw CheckFailure(
                    "\(ConformanceChecks.Subject.name(sample)) opens in process but not in shelf-plugin-sandbox, where shelf runs "
                        + "every plugin it does not ship: \(error). There a plugin reads only its own folder, the book file (the book's "
                        + "other files through shelf.host.files/1) and its data_dir and cache_dir, and makes no socket, "
                        + "fork or exec (shelf-plugin(7), WHERE A PLUGIN RUNS); "
                        + "SHELF_PLUGIN_CONFINEMENT=off tells whether the confinement is the cause")
            }
        }
        s.note(
            "\(samples.count) sample\(samples.count == 1 ? "" : "s") open\(samples.count == 1 ? "s" : "") in shelf-plugin-sandbox, confined"
        )
        return .passed
    }
}
