import ShelfPlugins

// The plugins subsystem's types a front end still names, under the host's names (Sources/ShelfPlugins: loading,
// the registry, routing, publications, connectors, conformance). Each is a step for the session API to take over
// (docs/architecture.md, "What is still open").
public typealias Publication = ShelfPlugins.Publication
public typealias FormatRouter = ShelfPlugins.FormatRouter
public typealias PluginRegistry = ShelfPlugins.PluginRegistry
public typealias PluginSearchPath = ShelfPlugins.PluginSearchPath
public typealias PluginInspection = ShelfPlugins.PluginInspection
public typealias SniffReport = ShelfPlugins.SniffReport
public typealias HostServices = ShelfPlugins.HostServices
public typealias ShelfVersion = ShelfPlugins.ShelfVersion
public typealias ConformanceChecks = ShelfPlugins.ConformanceChecks
public typealias ConformanceRunner = ShelfPlugins.ConformanceRunner
// Reading-list values of the connector ABI (readinglist.h) and the text helpers that go with them.
public typealias ConnectorDescription = ShelfPlugins.ConnectorDescription
public typealias ReadingListShelf = ShelfPlugins.ReadingListShelf
public typealias PullResult = ShelfPlugins.PullResult
public typealias PushResult = ShelfPlugins.PushResult
public typealias ISBN = ShelfPlugins.ISBN
public typealias Fold = ShelfPlugins.Fold
