import Host

let pluginsCommand = Command(
    name: "plugins", summary: "list the installed plugins and what they open",
    usage: "shelf plugins [--json]",
    details: """
    Lists every plugin found on the plugin search path (--plugin-path, $SHELF_PLUGIN_PATH, next to the
    shelf executable, ~/.local/lib/shelf/plugins, <prefix>/lib/shelf/plugins) with the media types or
    reading-list services it handles, and every library that was refused, with the reason.
    """,
    positionals: 0...0
) { _, context in
    let registry = context.shelf.registry
    // The diagnostic command opens every plugin, even those the registry cache would defer.
    registry.loadAll()
    let listing = PluginListing(registry)
    if context.json {
        Output.json(listing)
    } else {
        if listing.plugins.isEmpty { Output.line("No plugins found. `shelf help plugins` says where shelf looks.") }
        for p in listing.plugins {
            Output.line("\(p.name) \(p.version) (\(p.id))")
            if !p.mediaTypes.isEmpty { Output.line("  opens:    \(p.mediaTypes.joined(separator: ", "))") }
            if !p.services.isEmpty { Output.line("  connects: \(p.services.joined(separator: ", "))") }
            Output.line("  can:      \(p.capabilities.isEmpty ? "declare itself" : p.capabilities.joined(separator: ", "))")
            Output.line("  file:     \(p.path)")
        }
        for r in listing.refused {
            Output.line("Refused: \(r.path): \(r.reason)")
        }
    }
    return 0
}
