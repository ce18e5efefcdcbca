// Options the command line refuses for what they were given: the error, with what to type instead, said here once
// so that the command and its manual page say the same.

/// An option given something its command cannot take.
public enum CommandRefusal: Sendable, Equatable {
    /// `shelf listen --out -`: listen says what it does on standard output, so the sound cannot go there too.
    case listenSoundOnStandardOutput
    /// `shelf serve --open URL`: the browser app opens a file on this computer; `address` is on the web.
    case serveOpensFiles(address: String)
    /// `shelf serve --listen ADDRESS` without a password of 8 characters or more.
    case serveListensWithoutPassword(listen: String)

    /// The usage error a command throws.
    public var error: ShelfError {
        switch self {
        case .listenSoundOnStandardOutput:
            return ShelfError(
                .usage, "`shelf listen` says what it does on standard output, so its sound cannot go there",
                hint: "Name a file (--out FILE.wav), or use `shelf play BOOK --out -`.")
        case .serveListensWithoutPassword(let listen):
            return ShelfError(
                .usage, "--listen \(listen) needs a password of 8 characters or more",
                next: NextStep(
                    terminal: "Give --password-file FILE (or set SHELF_SERVE_PASSWORD): anyone who reaches \(listen) "
                        + "could otherwise act as you.", browser: nil))
        case .serveOpensFiles(let address):
            return ShelfError(
                .usage, "`shelf serve --open` opens a file on this computer, and this is an address on the web",
                subject: address,
                next: NextStep(
                    terminal: "Play an audiobook from its address with `shelf play \(address)` (it downloads as it "
                        + "plays), or download it first with `shelf fetch \(address)`; open a file you have with "
                        + "`shelf serve --open FILE`.",
                    browser: nil))
        }
    }
}
