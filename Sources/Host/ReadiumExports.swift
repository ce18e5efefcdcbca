// The Readium shapes (Locator, Manifest, ReadingListEntry) are the host's vocabulary too: whoever
// imports Host can use them without importing Readium as well.
@_exported import Readium
