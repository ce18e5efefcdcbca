// Where a title just wished for stands: `shelf wish` says it after the wish list's own "Added …" (`WishListChange`),
// as the wish list shows it (`WishText`).

/// A wish's match and availability, said once it is added.
public struct WishStanding: PatronOutcome, Sendable {
    public let wish: Wish

    public init(_ wish: Wish) { self.wish = wish }

    public var sentence: String { "Where it stands: \(WishText.words(wish))." }
}
