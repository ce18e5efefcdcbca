import ShelfCore
import Foundation

// The core's types a front end names, under the host's names (Sources/ShelfCore: errors, folders, the environment,
// SQLite; no domain types): the error every call throws and the folders a front end shows.
public typealias ShelfError = ShelfCore.ShelfError
public typealias ShelfDirectories = ShelfCore.ShelfDirectories
// Named by the host's public API though no front end names them: the environment of a default argument, and the
// connection `LibraryDatabase` still shows (until the library is a target of its own).
public typealias ProcessEnvironment = ShelfCore.ProcessEnvironment
public typealias SQLiteConnection = ShelfCore.SQLiteConnection

// For the host's own files, which name them without importing the core; no front end sees them (the database,
// SQLite, migrations and the network deadline are behind the session API).
typealias ShelfDirectoriesError = ShelfCore.ShelfDirectoriesError
typealias SQLiteStatement = ShelfCore.SQLiteStatement
typealias SQLiteRow = ShelfCore.SQLiteRow
typealias SQLiteValue = ShelfCore.SQLiteValue
typealias SQLiteValueConvertible = ShelfCore.SQLiteValueConvertible
typealias DatabaseError = ShelfCore.DatabaseError
typealias SchemaMigration = ShelfCore.SchemaMigration
typealias SchemaMigrator = ShelfCore.SchemaMigrator
typealias AtomicFile = ShelfCore.AtomicFile
typealias ByteWriter = ShelfCore.ByteWriter
typealias ByteReader = ShelfCore.ByteReader
typealias FileIdentity = ShelfCore.FileIdentity
typealias DirectoryNames = ShelfCore.DirectoryNames
public typealias DisplayText = ShelfCore.DisplayText

// The patron's dates (ShelfCore's DateText), for the front ends' lines.
public func localDay(_ date: Date) -> String { ShelfCore.localDay(date) }
public func localDayAndTime(_ date: Date) -> String { ShelfCore.localDayAndTime(date) }
