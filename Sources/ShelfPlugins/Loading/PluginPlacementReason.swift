import Foundation
import ShelfValues

/// Why `PluginPlacement` puts a plugin where it does, in words (`shelf plugins`): the same order of rules as
/// `runsOutOfProcess`, each saying which one decided.
extension PluginPlacement {
    func runPlace(id: String, shipped: Bool, path: String) -> PluginRunPlace {
        let out = runsOutOfProcess(id: id, shipped: shipped)
        let because: String
        if outOfProcess.contains(id) {
            because = "SHELF_PLUGINS_OUT_OF_PROCESS names it"
        } else if inProcess.contains(id) {
            because = "SHELF_PLUGINS_IN_PROCESS names it"
        } else if outOfProcess.contains("all") {
            because = "SHELF_PLUGINS_OUT_OF_PROCESS=all"
        } else if inProcess.contains("all") {
            because = "SHELF_PLUGINS_IN_PROCESS=all"
        } else if shipped {
            because = "shelf ships it"
        } else {
            let folder = (path as NSString).deletingLastPathComponent
            because = "shelf does not ship it: it was found in \(folder)"
        }
        guard out else { return PluginRunPlace(place: .inProcess, because: because) }
        guard confined else {
            return PluginRunPlace(
                place: .unconfined,
                because: because + "; SHELF_PLUGIN_CONFINEMENT=off runs it without Landlock and seccomp")
        }
        return PluginRunPlace(place: .confined, because: because)
    }
}
