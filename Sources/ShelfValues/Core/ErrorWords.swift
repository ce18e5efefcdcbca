extension ShelfError {
    /// What `error` says to a patron inside a longer sentence: a `ShelfError`'s message without its subject or hint,
    /// any other error as it describes itself.
    package static func words(_ error: Error) -> String {
        (error as? ShelfError)?.message ?? "\(error)"
    }
}
