import ShelfPlugins

// The plugins subsystem's values a front end names, under the host's names (Sources/ShelfPlugins: loading, the
// registry, routing, publications, connectors, conformance): what `shelf plugins --inspect` shows of a plugin.
// A publication is read through `BookFile`, conformance through `PluginConformance`; the registry, the router and
// host services stay behind `Shelf`.
public typealias PluginInspection = ShelfPlugins.PluginInspection
