internal import ShelfLibrary
import Foundation
internal import ShelfCore

extension LibrarySession {
    /// Downloads `entry` through `circulation` into its account's folder (`data/downloads/ACCOUNT`), as `shelf
    /// download` and the browser app's Download do; `progress` is called as bytes arrive.
    public func download(
        _ entry: CatalogEntry, with circulation: Circulation,
        progress: ((DownloadProgress) -> Void)? = nil
    ) throws -> Circulation.DownloadOutcome {
        let folder = ShelfLibrary.Circulation.downloadFolder(directories, accountID: circulation.account.id)
        return try circulation.circulation.download(entry, into: folder, progress: progress)
    }
}
