import Foundation
import Host

/// The question Return asks before a loan goes back (`CirculationQuestion`, the host's words), added as
/// `returnQuestion` to the documents the pages draw a Return button from: a loan in My Books, a title on loan in
/// its details.
struct ReturnQuestion: Encodable {
    let question: String
    let detail: String?

    init(title: String) {
        let words = CirculationQuestion.returnLoan(title: title).words(for: .browser)
        (question, detail) = (words.sentence, words.hint)
    }
}

/// A host document with `returnQuestion` beside its own members, and for a title's details `shelfBook` (the book
/// on this computer its loan was downloaded to, what Read or Listen opens) and `wish`.
struct WithReturnQuestion<Document: Encodable>: Encodable {
    let document: Document
    let returnQuestion: ReturnQuestion?
    var shelfBook: ShelfBookJSON? = nil
    /// The patron's wish for this title, when there is one (the details page offers to remove it).
    var wish: WishID? = nil

    struct WishID: Encodable { let id: Int64 }

    private enum Key: String, CodingKey { case returnQuestion, shelfBook, wish }

    func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(returnQuestion, forKey: .returnQuestion)
        try container.encodeIfPresent(shelfBook, forKey: .shelfBook)
        try container.encodeIfPresent(wish, forKey: .wish)
    }
}
