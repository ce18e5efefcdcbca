import ShelfValues
import ShelfCore
import Foundation
import Synchronization
import PluginAPI

/// The conformance check of reading-list connectors ("connector" in `shelf conformance`). A plugin that
/// declares no services and offers no `shelf.readinglist/1` passes it trivially (it is consistent); a connector
/// must answer describe with well-formed capabilities, refuse malformed settings with a message, and fail a pull
/// or push without credentials with a message, never a crash, a hang or a network call outside loopback.
enum ConnectorConformance {
    typealias Failure = ConformanceChecks.CheckFailure

    static func offersReadingList(_ plugin: LoadedPlugin) -> Bool {
        plugin.extensionTable(SHELF_EXT_READINGLIST, minimumSize: MemoryLayout<shelf_readinglist_v1>.size) != nil
    }

    static func isConnector(_ plugin: LoadedPlugin) -> Bool {
        !plugin.descriptor.services.isEmpty && offersReadingList(plugin)
    }

    /// Secrets go to an empty scratch file (never the desktop's keyring): a check never sees, or changes, the
    /// patron's credentials. One given with `--secret KEY` is stored there for the plugin and each of its services
    /// (credentials/1 and /2); one given with `--secret SERVICE.KEY` for that service alone (credentials/2).
    static func useScratchCredentials(_ s: ConformanceChecks.Subject, secrets: [String: String]? = nil) throws {
        ConnectorServices.keepsSecretsInFile.store(true, ordering: .relaxed)
        ConnectorServices.credentialDirectories = ShelfDirectories(
            config: URL(fileURLWithPath: s.scratch + "/config"), data: URL(fileURLWithPath: s.scratch + "/data"),
            cache: URL(fileURLWithPath: s.scratch + "/cache"))
        let id = s.plugin.descriptor.id, services = s.plugin.descriptor.services
        let given = ServiceSettings(given: secrets ?? s.givenSecrets, services: services)
        for (name, value) in given.given.sorted(by: { $0.key < $1.key }) {
            let (owner, key) = given.split(name)
            if let owner {
                try ConnectorServices.setSecret(value, pluginID: id, service: owner, key: key)
                continue
            }
            try ConnectorServices.setSecret(value, pluginID: id, key: key)
            for service in services where given.given["\(service).\(key)"] == nil {
                try ConnectorServices.setSecret(value, pluginID: id, service: service, key: key)
            }
        }
    }

    static func check(_ s: ConformanceChecks.Subject) throws -> ConformanceResult.Status {
        let services = s.plugin.descriptor.services
        let offers = offersReadingList(s.plugin)
        if services.isEmpty && !offers {
            s.note("not a connector: declares no services and offers no \(SHELF_EXT_READINGLIST)")
            return .passed
        }
        guard !services.isEmpty else {
            throw Failure("offers \(SHELF_EXT_READINGLIST) but lists no services in its descriptor")
        }
        guard offers else {
            throw Failure("lists services (\(services.joined(separator: ", "))) but offers no \(SHELF_EXT_READINGLIST)")
        }

        // Without settings and without secrets: what a connector does before it is configured.
        try useScratchCredentials(s, secrets: [:])
        return try s.eachService { service in
            try unconfigured(s, service)
        }
    }

    /// One service, unconfigured: describe, an unknown service, malformed settings, and pull and push without
    /// settings or credentials.
    static func unconfigured(_ s: ConformanceChecks.Subject, _ service: String) throws -> ConformanceResult.Status {
        var status = ConformanceResult.Status.passed
        let connector = try Connector(plugin: s.plugin, service: service)
        // describe: the documented capabilities JSON.
        let data = try service.withCString { name in
            try PluginCall.collect(s.plugin) { out, err in connector.table.pointee.describe!(name, out, err) }
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Failure("\(service): describe wrote no JSON object")
        }
        guard object["service"] as? String == service else {
            throw Failure("\(service): capabilities name the service \(object["service"] ?? "nothing")")
        }
        for key in ["pull", "pushRead", "pushToRead"] where !(object[key] is Bool) && object[key] != nil {
            throw Failure("\(service): capability \(key) is not true or false")
        }
        if object["pull"] == nil { s.note("capabilities do not say whether it can pull"); status = .warning }
        for setting in object["settings"] as? [[String: Any]] ?? [] where (setting["key"] as? String)?.isEmpty != false
        {
            throw Failure("\(service): a setting has no key")
        }
        // An unknown service is not found, with a message.
        var error = PluginCall.newError()
        let output = OutputCollector(limit: 1 << 20)
        let unknown = output.withWriter { out in
            connector.table.pointee.describe!("org.example.no-such-service", out, &error)
        }
        if unknown == SHELF_OK { throw Failure("describe of an unknown service succeeded") }
        if PluginCall.message(of: &error).isEmpty {
            throw Failure("describe of an unknown service failed without a message")
        }

        // Malformed settings are refused with a message, and leave no connection.
        for bad in ["not json", "[1, 2]"] {
            var handle: OpaquePointer?
            var e = PluginCall.newError()
            let st = service.withCString { n in
                bad.withCString { b in connector.table.pointee.connect!(n, b, &handle, &e) }
            }
            if let handle {
                if st != SHELF_OK { throw Failure("\(service): a failed connect left a connection") }
                connector.table.pointee.disconnect!(handle)
                throw Failure("\(service): connect accepted the settings \(bad)")
            }
            if PluginCall.message(of: &e).isEmpty {
                throw Failure("\(service): connect refused \(bad) without a message")
            }
        }

        // No settings and no credentials: either connect refuses, or pull and push fail, each with a message.
        let connection: Connector.Connection
        do {
            connection = try connector.connect(settings: [:])
        } catch let failure as PluginCallError {
            if failure.message.isEmpty {
                throw Failure("\(service): connect with no settings failed without a message")
            }
            s.note("connect with no settings: \(PluginCallError.name(of: failure.status))")
            return status
        }
        do {
            _ = try connection.pull()
            s.note("pull with no settings or credentials succeeded (a public source?)")
            status = .warning
        } catch let failure as PluginCallError {
            if failure.message.isEmpty {
                throw Failure("\(service): pull without credentials failed without a message")
            }
            s.note("pull without credentials: \(PluginCallError.name(of: failure.status))")
        }
        // Push of malformed entries is refused with a message.
        var e = PluginCall.newError()
        let pushOut = OutputCollector(limit: 1 << 20)
        let st = "{\"entries\": 7}".withCString { text in
            pushOut.withWriter { out in connector.table.pointee.push!(connection.handle, text, out, &e) }
        }
        if st == SHELF_OK { throw Failure("\(service): push accepted {\"entries\": 7}") }
        if PluginCall.message(of: &e).isEmpty {
            throw Failure("\(service): push refused malformed entries without a message")
        }
        return status
    }
}
