import ShelfCore
import Foundation

// The core's types a front end names, under the host's names (Sources/ShelfCore: errors, folders, the environment,
// SQLite; no domain types): the error every call throws, the folders a front end shows, text made one line for it.
// The database, SQLite, migrations, the environment and the network deadline are behind the session API; the
// host's own files import the core.
public typealias ShelfError = ShelfCore.ShelfError
public typealias OutputFile = ShelfCore.OutputFile
public typealias ShelfDirectories = ShelfCore.ShelfDirectories
public typealias DisplayText = ShelfCore.DisplayText

// The patron's dates (ShelfCore's DateText), for the front ends' lines.
public func localDay(_ date: Date) -> String { ShelfCore.localDay(date) }
public func localDayAndTime(_ date: Date) -> String { ShelfCore.localDayAndTime(date) }
