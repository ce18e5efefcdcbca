import Foundation

/// What a command does with the book it names (`BookReference.Purpose`): only reads it, or changes it, in words for
/// the refusal ("remove it", "mark it read"); a change acts on a part of a title only once the patron confirms.
public enum BookPurpose: Equatable, Sendable {
    case read
    case change(String)
}

/// A book put on the shelf (`Bookshelf.Added`).
public struct AddedBook: Sendable {
    public var book: ShelfBook
    /// True when a book with the same identifier was on the shelf: its file was replaced, and its position,
    /// bookmarks and settings kept.
    public var replacedEdition: Bool

    public init(book: ShelfBook, replacedEdition: Bool) {
        self.book = book
        self.replacedEdition = replacedEdition
    }
}

/// A book taken off the shelf (`Bookshelf.Removed`).
public struct RemovedBook: Sendable {
    public var book: ShelfBook
    /// The copy shelf deleted, if it had one.
    public var deletedFile: String?

    public init(book: ShelfBook, deletedFile: String?) {
        self.book = book
        self.deletedFile = deletedFile
    }
}
