import ShelfLibrary

// The library subsystem's types a front end still names, under the host's names (Sources/ShelfLibrary: the database,
// accounts, catalogs, circulation, notifications, reading lists, downloads). Each is a step for the session API to
// take over (docs/architecture.md, "What is still open").
public typealias NotificationRecord = ShelfLibrary.NotificationRecord
public typealias NotificationDelivery = ShelfLibrary.NotificationDelivery
public typealias ReadingLists = ShelfLibrary.ReadingLists
public typealias WatchInterval = ShelfLibrary.WatchInterval
