// The second process of LibraryDatabaseTests.testTwoProcessesWriteAtOnceWithoutLosingRows: writes ROWS books named
// PREFIX-0 ... into the library database at PATH while the test's own process writes into it too. A program of its
// own, not a test method started again by filter, so that no test can pass by doing nothing when run alone.
// Usage: shelf-database-writer PATH PREFIX ROWS. Exit 0 when every row was written, 1 with the error otherwise.
import Foundation
import ShelfLibrary
import ShelfValues

let arguments = CommandLine.arguments
guard arguments.count == 4, let rows = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: shelf-database-writer PATH PREFIX ROWS\n".utf8))
    exit(64)
}
do {
    let database = try LibraryDatabase(path: arguments[1])
    defer { database.close() }
    for index in 0..<rows {
        try database.upsertBook(BookRecord(id: "\(arguments[2])-\(index)", mediaType: "text/plain", title: "\(index)"))
    }
} catch {
    FileHandle.standardError.write(Data("shelf-database-writer: \(error)\n".utf8))
    exit(1)
}
