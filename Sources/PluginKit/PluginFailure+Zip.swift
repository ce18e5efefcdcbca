import PluginAPI
import LibZip

extension PluginFailure {
    /// A zip archive's failure with the status the ABI gives its kind.
    public init(_ zip: ZipError) {
        let status: shelf_status
        switch zip.kind {
        case .notFound: status = SHELF_E_NOT_FOUND
        case .io: status = SHELF_E_IO
        case .badData: status = SHELF_E_BAD_DATA
        case .limit: status = SHELF_E_LIMIT
        case .unsupported: status = SHELF_E_UNSUPPORTED
        case .protected: status = SHELF_E_PROTECTED
        case .noMemory: status = SHELF_E_NO_MEMORY
        }
        self.init(status, zip.message, at: zip.location)
    }
}
