import ShelfCore

// The core's types under the host's names: the host's files and every front end use them without importing the
// core (Sources/ShelfCore: errors, folders, the environment, SQLite; no domain types).
public typealias ShelfError = ShelfCore.ShelfError
public typealias ProcessEnvironment = ShelfCore.ProcessEnvironment
public typealias ShelfDirectories = ShelfCore.ShelfDirectories
public typealias ShelfDirectoriesError = ShelfCore.ShelfDirectoriesError
public typealias SQLiteConnection = ShelfCore.SQLiteConnection
public typealias SQLiteStatement = ShelfCore.SQLiteStatement
public typealias SQLiteRow = ShelfCore.SQLiteRow
public typealias SQLiteValue = ShelfCore.SQLiteValue
public typealias SQLiteValueConvertible = ShelfCore.SQLiteValueConvertible
public typealias DatabaseError = ShelfCore.DatabaseError
public typealias SchemaMigration = ShelfCore.SchemaMigration
public typealias SchemaMigrator = ShelfCore.SchemaMigrator
public typealias CommandDeadline = ShelfCore.CommandDeadline
typealias AtomicFile = ShelfCore.AtomicFile
typealias ByteWriter = ShelfCore.ByteWriter
typealias ByteReader = ShelfCore.ByteReader
typealias FileIdentity = ShelfCore.FileIdentity
typealias DirectoryNames = ShelfCore.DirectoryNames
