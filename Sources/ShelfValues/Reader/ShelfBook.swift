import Foundation

/// How a book's file is kept on the shelf.
public enum BookStorage: String, Sendable, Codable {
    /// Copied into shelf's data folder by `shelf add`.
    case copy
    /// Left where it was (`shelf add --link`); shelf only keeps the path.
    case link
    /// Downloaded from a library catalog.
    case download
    /// A catalog's sample or preview, downloaded by `shelf sample`.
    case sample

    public var words: String {
        switch self {
        case .copy: return "copied to the shelf"
        case .link: return "linked in place"
        case .download: return "downloaded from the library"
        case .sample: return "sample"
        }
    }
}

/// One row of the bookshelf: the book, how it is kept, how far the patron has read, and the loan's end.
public struct ShelfBook: Sendable {
    public var book: BookRecord
    public var storage: BookStorage
    public var isSample: Bool
    /// The catalog's web link for the book, when it came from one.
    public var link: String?
    public var progress: ReadingProgress?
    /// How far an audiobook has been listened to.
    public var listening: ListeningProgress?
    public var loanEndsAt: Date?
    public var loanAccountID: String?
    public var loanEntryID: String?
    /// When the library ended the loan this book was downloaded as, its file being deleted then (nil: it was not).
    public var loanEndedAt: Date?

    public init(
        book: BookRecord, storage: BookStorage, isSample: Bool, link: String? = nil, progress: ReadingProgress? = nil,
        listening: ListeningProgress? = nil, loanEndsAt: Date? = nil, loanAccountID: String? = nil,
        loanEntryID: String? = nil, loanEndedAt: Date? = nil
    ) {
        self.book = book
        self.storage = storage
        self.isSample = isSample
        self.link = link
        self.progress = progress
        self.listening = listening
        self.loanEndsAt = loanEndsAt
        self.loanAccountID = loanAccountID
        self.loanEntryID = loanEntryID
        self.loanEndedAt = loanEndedAt
    }

    /// An eBook or an audiobook, from the media type (no plugin is opened to list the shelf).
    public var format: PublicationFormat { BookFormat.of(mediaType: book.mediaType) }

    /// "eBook" or "Audiobook".
    public var formatInWords: String { format.words }

    /// How far the patron is, in whole percent: the page counter of an eBook, the time heard of an audiobook.
    public var percentRead: Int { listening?.percent ?? progress?.percent ?? 0 }
}

/// How far the listener is in an audiobook: seconds heard of its length.
public struct ListeningProgress: Equatable, Sendable {
    public var seconds: Double
    public var duration: Double
    public var updatedAt: Date

    public init(seconds: Double, duration: Double, updatedAt: Date = Date()) {
        self.seconds = seconds
        self.duration = duration
        self.updatedAt = updatedAt
    }

    /// Whole percent, rounded down as pages are: 24 s of 52 s is 46%; the end 100%.
    public var percent: Int {
        guard duration > 0 else { return 0 }
        return min(100, max(0, Int((seconds / duration * 100).rounded(.down))))
    }
}

/// How far the patron has read, as the page counter shows it: page P of N.
public struct ReadingProgress: Equatable, Sendable {
    public var bookID: String
    public var page: Int
    public var pages: Int
    public var updatedAt: Date

    public init(bookID: String, page: Int, pages: Int, updatedAt: Date = Date()) {
        self.bookID = bookID
        self.page = page
        self.pages = pages
        self.updatedAt = updatedAt
    }

    /// Whole percent read, counting the page on screen as read: page 48 of 340 is 14%, the last page 100%.
    public var percent: Int { Self.percent(page: page, of: pages) }

    public static func percent(page: Int, of pages: Int) -> Int {
        guard pages > 0 else { return 0 }
        return min(100, max(0, page) * 100 / pages)
    }
}

enum BookFormat {
    static func of(mediaType: String) -> PublicationFormat {
        let type = mediaType.lowercased()
        return type.hasPrefix("audio/") || type.contains("audiobook") ? .audiobook : .ebook
    }
}
