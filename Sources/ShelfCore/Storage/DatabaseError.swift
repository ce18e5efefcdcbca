import CSQLite
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A failure of the library database, worded for the patron: which file, what sqlite said, what to do.
///
/// `kind` lets the command line pick an exit code and lets callers react (retry when busy, stop when damaged)
/// without parsing text.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    public enum Kind: String, Sendable, Equatable {
        /// Not a database, or its pages do not add up. Never repaired or replaced by shelf: the patron decides.
        case damaged
        /// Another process held the lock for longer than the busy timeout and every retry.
        case busy
        /// The file or its folder may not be read or written by this user.
        case permission
        /// Written by a newer shelf whose schema this one does not know; left untouched.
        case newerVersion
        /// A row broke a rule of the schema (an unknown book, a malformed JSON column).
        case constraint
        case other
    }

    public let kind: Kind
    /// The database file concerned.
    public let path: String
    /// The extended sqlite result code, when sqlite reported the failure.
    public let sqliteCode: Int32?
    /// sqlite's own words, kept apart so that logs can show them without the advice.
    public let sqliteMessage: String?
    /// The full sentence for the patron.
    public let message: String

    public init(kind: Kind, path: String, sqliteCode: Int32? = nil, sqliteMessage: String? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.sqliteCode = sqliteCode
        self.sqliteMessage = sqliteMessage
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}

extension DatabaseError {
    /// Builds the patron-facing error for a sqlite result code.
    ///
    /// `systemErrno` separates "permission denied" from other reasons sqlite could not open a file, which share
    /// one result code. `label` names the database in the sentence ("library database").
    public static func fromSQLite(
        code: Int32, sqliteMessage: String, systemErrno: Int32, path: String,
        label: String, context: String
    ) -> DatabaseError {
        let primary = code & 0xff
        let said = "\(sqliteMessage), while \(context)"
        let permissionErrnos: Set<Int32> = [EACCES, EPERM, EROFS]
        switch primary {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return DatabaseError(
                kind: .damaged, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) is damaged (\(said)): move it aside and shelf will create a new one")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return DatabaseError(
                kind: .busy, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) is busy (\(said)): another shelf is using it; try again in a moment")
        case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            return permission(path: path, label: label, code: code, sqliteMessage: sqliteMessage, said: said)
        case SQLITE_CANTOPEN where permissionErrnos.contains(systemErrno),
            SQLITE_IOERR where permissionErrnos.contains(systemErrno):
            return permission(path: path, label: label, code: code, sqliteMessage: sqliteMessage, said: said)
        case SQLITE_CONSTRAINT:
            return DatabaseError(
                kind: .constraint, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) refused a change (\(said))")
        case SQLITE_FULL:
            return DatabaseError(
                kind: .other, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) could not be written (\(said)): free some disk space and try again")
        case SQLITE_CANTOPEN:
            return DatabaseError(
                kind: .other, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message:
                    "the \(label) at \(path) could not be opened (\(said)): check that this path names a file, not a folder, and that its folder exists"
            )
        case SQLITE_IOERR:
            return DatabaseError(
                kind: .other, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) could not be read or written (\(said)): check the disk and try again")
        default:
            return DatabaseError(
                kind: .other, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
                message: "the \(label) at \(path) failed (\(said))")
        }
    }

    private static func permission(
        path: String, label: String, code: Int32, sqliteMessage: String,
        said: String
    ) -> DatabaseError {
        DatabaseError(
            kind: .permission, path: path, sqliteCode: code, sqliteMessage: sqliteMessage,
            message:
                "shelf may not use the \(label) at \(path) (\(said)): check the permissions of the file and its folder")
    }

    /// The schema is newer than this build: refusing is the only safe answer, since an older shelf cannot know
    /// what the newer steps meant and must not write rows that break them.
    public static func newerVersion(path: String, label: String, found: Int, known: Int) -> DatabaseError {
        DatabaseError(
            kind: .newerVersion, path: path,
            message: "the \(label) at \(path) was written by a newer shelf (schema version \(found); this shelf "
                + "knows up to \(known)): update shelf to use it; the file was left untouched")
    }

    /// A mistake in how the caller used the layer (wrong number of values, a closed connection, an unexpected
    /// column type): reported, never a crash.
    public static func misuse(path: String, label: String, _ what: String) -> DatabaseError {
        DatabaseError(kind: .other, path: path, message: "the \(label) at \(path) was used wrongly: \(what)")
    }
}
