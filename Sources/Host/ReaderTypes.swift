import ShelfReader

// The reader subsystem's types a front end still names, under the host's names (Sources/ShelfReader: the bookshelf,
// reading sessions, bookmarks, settings). Each is a step for the session API to take over (docs/architecture.md,
// "What is still open").
public typealias Bookshelf = ShelfReader.Bookshelf
public typealias BookReference = ShelfReader.BookReference
public typealias BookReader = ShelfReader.BookReader
public typealias ReadingSession = ShelfReader.ReadingSession
