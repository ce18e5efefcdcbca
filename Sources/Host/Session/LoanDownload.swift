internal import ShelfLibrary
import Foundation
internal import ShelfCore

extension LibrarySession {
    /// Downloads `entry` through `circulation` into its account's folder (`data/downloads/ACCOUNT`), as `shelf
    /// download` and the browser app's Download do; `progress` is called as bytes arrive. `playable`, for an
    /// audiobook listened to as it arrives (the browser app's Listen): called with the shelf's id of the book once
    /// its first part is whole and the book is on the shelf, while the other parts go on arriving (a listening
    /// session opened on it then takes each part as it comes).
    public func download(
        _ entry: CatalogEntry, with circulation: Circulation,
        progress: ((DownloadProgress) -> Void)? = nil, playable: ((String) -> Void)? = nil
    ) throws -> Circulation.DownloadOutcome {
        let folder = ShelfLibrary.Circulation.downloadFolder(directories, accountID: circulation.account.id)
        return try circulation.circulation.download(entry, into: folder, progress: progress, playable: playable)
    }
}
