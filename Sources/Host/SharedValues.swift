// The values whoever imports Host may name without importing anything else: the Readium shapes (Locator, Manifest,
// ReadingListEntry) and shelf's own shared values (playback's state, events, times, chapters, the sleep timer's
// setting). They carry no behaviour, so re-exporting them shows a front end nothing of the subsystems, which the
// facade imports `internal`ly (the compiler then refuses a public session call that hands out an engine or a sink).
@_exported import Readium
@_exported import ShelfValues
