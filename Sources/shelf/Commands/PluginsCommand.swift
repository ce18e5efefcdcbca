import Foundation
import Host

let pluginsCommand = Command(
    name: "plugins", summary: "list the installed plugins and what they open",
    usage: "shelf plugins [--inspect ID] [--json]",
    details: """
        Lists every plugin found on the plugin search path (--plugin-path, $SHELF_PLUGIN_PATH, next to the
        shelf executable, ~/.local/lib/shelf/plugins, <prefix>/lib/shelf/plugins) with the media types or
        reading-list services it handles, where it runs (in shelf's process, or confined in a process of its
        own) and why, and every library that was refused, with the reason. --inspect ID
        shows one plugin whole: its descriptor, each capability's vtable, and each service's capabilities.
        """,
    valueOptions: ["--inspect"],
    positionals: 0...0
) { args, context in
    if let id = args.value("--inspect") {
        guard let inspection = context.shelf.pluginInspection(id: id) else {
            throw CommandLookup.noPlugin(id: id).error
        }
        if context.json { Output.json(inspection) } else { printInspection(inspection) }
        return 0
    }
    let listing = context.shelf.pluginListing()
    if context.json {
        Output.json(listing)
    } else {
        if listing.plugins.isEmpty { Output.line(EmptyListing.plugins.words(for: .terminal).line) }
        for p in listing.plugins {
            Output.line("\(p.name) \(p.version) (\(p.id))")
            if !p.mediaTypes.isEmpty { Output.line("  opens:    \(p.mediaTypes.joined(separator: ", "))") }
            if !p.services.isEmpty { Output.line("  connects: \(p.services.joined(separator: ", "))") }
            Output.line(
                "  can:      \(p.capabilities.isEmpty ? "declare itself" : p.capabilities.joined(separator: ", "))")
            Output.line("  file:     \(p.path)")
            Output.line("  runs:     \(p.runsInWords)")
            if let note = p.abiNote { Output.line("  ABI:      \(p.abi), \(note)") }
        }
        for r in listing.refused {
            Output.line("Refused: \(r.path): \(r.reason)")
        }
    }
    return 0
}

func printInspection(_ p: PluginInspection) {
    Output.line("\(p.name) \(p.version) (\(p.id))")
    Output.line("  file:         \(p.path)")
    Output.line("  ABI:          \(p.abi), descriptor of \(p.descriptorSize) bytes\(p.abiNote.map { "; " + $0 } ?? "")")
    for (label, value) in [("licence", p.license), ("vendor", p.vendor), ("url", p.url), ("description", p.description)]
    {
        if let value { Output.line("  \((label + ":").padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)") }
    }
    Output.line("  runs:         \(p.runsInWords)")
    Output.line(
        "  handles:      \(p.concurrentHandles ? "used from several threads at once" : "serialised by the host")")
    if !p.mediaTypes.isEmpty { Output.line("  media types:  \(p.mediaTypes.joined(separator: ", "))") }
    if !p.fileExtensions.isEmpty { Output.line("  extensions:   \(p.fileExtensions.joined(separator: ", "))") }
    for c in p.capabilities {
        Output.line(
            "  offers:       \(c.id) (vtable of \(c.structSize) bytes, \(Plural.count(c.functions, "function")))")
    }
    for s in p.services {
        if let c = s.capabilities {
            let can = [
                c.pull == true ? "pull" : nil, c.pushRead == true ? "push reads" : nil,
                c.pushToRead == true ? "push to-reads" : nil
            ]
            .compactMap { $0 }.joined(separator: ", ")
            Output.line(
                "  service:      \(s.service) (\(c.name ?? s.service)): \(can.isEmpty ? "nothing" : can); authorization \(c.authorization ?? "none")"
            )
            for setting in c.settings ?? [] {
                Output.line(
                    "    setting:    \(setting.key): \(setting.label)\(setting.required == true ? ", required" : "")\(setting.secret == true ? ", secret" : "")"
                )
            }
        } else {
            Output.line("  service:      \(s.service): describe failed: \(s.error ?? "")")
        }
    }
}

let sniffCommand = Command(
    name: "sniff", summary: "say which plugin opens a file, and why",
    usage: "shelf sniff FILE [--json]",
    details: """
        Shows the media type shelf sniffs for FILE, every format plugin's probe confidence, and the plugin
        that opens it. A generic answer (application/xml, application/zip, application/octet-stream,
        application/json, text/plain) is refined by the plugins' declarations: the file's extension, or an
        XML root element a declared type names. The plugins that declare the resulting media type are asked
        first; when none of them is confident, every other format plugin is (format.h).
        """,
    positionals: 1...1
) { args, context in
    let path = args.positionals[0]
    guard FileManager.default.fileExists(atPath: path) else {
        throw CommandLookup.noSuchFile(path: path, what: "file").error
    }
    let report = try context.shelf.sniff(path)
    if context.json {
        Output.json(report)
    } else {
        let refined =
            report.sniffedMediaType != report.mediaType
            ? " (sniffed \(report.sniffedMediaType ?? "nothing"), refined by a plugin's declaration)" : ""
        Output.line("\(path): \(report.mediaType ?? "unknown media type")\(refined)")
        for p in report.probes {
            Output.line(
                "  \(String(p.confidence).padding(toLength: 4, withPad: " ", startingAt: 0)) \(p.plugin)\(p.claims ? " (declares it)" : "")"
                    + (p.error.map { ": cannot open it: \($0)" } ?? ""))
        }
        Output.line(CommandNotice.opensWith(plugin: report.opensWith).words(for: .terminal).line)
    }
    return report.opensWith == nil ? 69 : 0
}
