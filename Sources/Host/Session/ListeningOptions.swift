internal import ShelfPlayback

/// How a listening session plays, as a front end chooses it when it opens one (`Shelf.listen(_:options:)`).
public struct ListeningOptions: Sendable, Equatable {
    /// Seconds `skipForward()` and `skipBackward()` move (`shelf listen --step`).
    public var skipStep: Double = 30
    /// `run` returns when playback pauses (`shelf play`); otherwise it waits for the next control (`shelf listen`).
    public var stopWhenPaused = true
    /// For a book read aloud (an EPUB): the chapter to start at, 0-based as `shelf toc` lists them, instead of where
    /// the patron stopped; speaking starts there. An audiobook starts where `ListeningSession.start(from:)` says.
    public var chapter: Int?
    /// For a book read aloud: that `ListeningSession.start(from:)` will be given a time (`--from TIME`), seconds into
    /// the book as spoken from its first chapter. Speaking then starts at the book's beginning, not where the patron
    /// stopped, so that its timeline holds that time.
    public var startsAtTime = false
    /// For a narrated book (media overlays): leave out what the book marks skippable (page numbers, notes,
    /// sidebars...). Off by default: everything plays unless the patron asks, as Media Overlays 3.3 suggests.
    public var skipSkippable = false
    /// For a narrated book: play its narration (true) or read its text aloud with a speech plugin as any book's.
    public var narration = true

    public init() {}

    /// The engine's options with these choices, the rest as the engine has them.
    var engineOptions: PlaybackEngine.Options {
        var options = PlaybackEngine.Options()
        options.skipStep = skipStep
        options.stopWhenPaused = stopWhenPaused
        return options
    }
}
