import ShelfPlugins

// The plugins subsystem's values a front end names, under the host's names (Sources/ShelfPlugins: loading, the
// registry, routing, publications, connectors, conformance): what `shelf plugins --inspect` shows of a plugin.
// A publication is read through `BookFile`, conformance through `PluginConformance`.
public typealias PluginInspection = ShelfPlugins.PluginInspection
// Reading-list values of the connector ABI (readinglist.h), which the reading lists' answers hold.
public typealias ConnectorDescription = ShelfPlugins.ConnectorDescription
public typealias ReadingListShelf = ShelfPlugins.ReadingListShelf

// For the host's own files, which name them without importing the plugins subsystem; no front end sees them (the
// registry, the router, host services and conformance are behind the session API: Shelf, PluginConformance).
typealias HostServices = ShelfPlugins.HostServices
typealias PullResult = ShelfPlugins.PullResult
typealias PushResult = ShelfPlugins.PushResult
typealias ISBN = ShelfPlugins.ISBN
typealias Fold = ShelfPlugins.Fold
