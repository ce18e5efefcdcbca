// The values whoever imports Host may name without importing anything else: the Readium shapes (Locator, Manifest),
// the connector ABI's entry (ReadingListEntry) and shelf's own shared values (playback's state, events, times,
// chapters, the sleep timer's setting; a plugin's inspection, a sniff report, the conformance report, a rendered
// item, the connector ABI's values). They carry no behaviour, so re-exporting them shows a front end nothing of the
// subsystems, which the facade imports `internal`ly (the compiler then refuses a public session call that hands out
// an engine, a sink, a publication or the plugin registry).
@_exported import Readium
@_exported import ConnectorShapes
@_exported import ShelfValues
