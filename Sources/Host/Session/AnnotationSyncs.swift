internal import ShelfReader
internal import ShelfLibrary
internal import ShelfCore
import Foundation

extension LibrarySession {
    /// Syncs the reading position and bookmarks of books on loan with their libraries' annotation services (a
    /// catalog client per account, made once). With one book (`single`), a book that is not a loan, or whose
    /// library keeps no annotations, is an error, and so is a failed sync unless `keepGoing`; with every downloaded
    /// loan, books without the service are left out and a failure is a result with its error. Nothing stored here
    /// changes for a book whose sync failed.
    public func syncAnnotations(of books: [ShelfBook], single: Bool, keepGoing: Bool) throws -> [AnnotationSyncJSON] {
        var clients: [String: CatalogClient] = [:]
        var results: [AnnotationSyncJSON] = []
        for book in books {
            guard let accountID = book.loanAccountID else {
                if single {
                    throw ShelfError(
                        .unavailable, "“\(book.book.title)” is not on loan from a library, so there is nothing to sync",
                        subject: book.book.id)
                }
                continue
            }
            let client: CatalogClient
            if let known = clients[accountID] {
                client = known
            } else {
                client = self.client(for: try accounts.resolve(accountID.isEmpty ? nil : accountID))
                clients[accountID] = client
            }
            let sync = AnnotationSync(database: database, client: client)
            guard let entry = try sync.loanEntry(of: book), entry.annotationServiceLink != nil else {
                if single {
                    throw ShelfError(
                        .unavailable, "the library keeps no reading positions or bookmarks for “\(book.book.title)”",
                        subject: book.book.id, hint: "Only loans from libraries with an annotation service sync.")
                }
                continue
            }
            do {
                results.append(AnnotationSyncJSON(try sync.sync(book, entry: entry)))
            } catch {
                if single && !keepGoing { throw error }
                results.append(AnnotationSyncJSON(failed: book, error))
            }
        }
        return results
    }
}
