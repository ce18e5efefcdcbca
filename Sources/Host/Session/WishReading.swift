internal import ShelfLibrary
import Foundation

extension LibrarySession {
    /// The wish list as stored, read only: no match and no look at the libraries, so no "available now" notice is
    /// used up by a page that only asks whether a title is wished.
    public func storedWishes() throws -> [Wish] { try database.wishes() }
}
