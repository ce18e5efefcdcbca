// An error as each face says it. A `ShelfError`'s message is written to follow "shelf: " on a terminal (a clause in
// lower case, often without a full stop); its `next` holds what to do on each face. The terminal prints the error as
// it always has (`ShelfError.description`, under "shelf: "); the browser gets whole sentences from here and shows
// them as they are.

extension ShelfError {
    /// The error's words for `face`: on a terminal the message as it follows "shelf: SUBJECT: " and the terminal's
    /// hint; in the browser the message as a sentence (no subject: the page shows what it was about) and the
    /// browser's hint, or, when the error is one to wait out and its words do not say so, "Try again in a moment.".
    public func words(for face: Face) -> Words {
        switch face {
        case .terminal:
            return Words(message, hint: next?.terminal)
        case .browser:
            let said = Self.sentence(message)
            var hint = next?.browser.map(Self.sentence)
            if hint == nil, kind == .temporary, !said.lowercased().contains("try again") {
                hint = "Try again in a moment."
            }
            return Words(said, hint: hint)
        }
    }

    /// A clause written to follow "shelf: " as a sentence on its own: a capital first, a full stop last.
    static func sentence(_ clause: String) -> String {
        let text = clause.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = text.first else { return text }
        let capital = first.uppercased() + text.dropFirst()
        return ".!?…”\"')".contains(capital.last ?? ".") ? capital : capital + "."
    }
}
