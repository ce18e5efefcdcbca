import Host

/// One subcommand: its words for `help`, the options it accepts, and what it does.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let details: String
    var valueOptions: Set<String> = []
    var flagOptions: Set<String> = []
    let positionals: ClosedRange<Int>
    var hidden = false
    /// A command that serves patron actions until it is stopped (`serve`, `watch`) bounds each action's network
    /// waits by itself instead of holding the whole run to one command deadline.
    var runsUntilStopped = false
    let run: @Sendable (Arguments, Context) throws -> Int32
}

/// What every command gets: the parsed global options and the host, whose sessions it calls.
final class Context {
    let json: Bool
    let shelf: Shelf
    private var openedLibrary: LibrarySession?

    init(json: Bool, pluginPaths: [String]) {
        self.json = json
        self.shelf = Shelf(pluginPaths: pluginPaths)
    }

    /// The patron's libraries, opened on first use and shared by a command that runs another one.
    func library() throws -> LibrarySession {
        if let openedLibrary { return openedLibrary }
        let library = try shelf.library()
        openedLibrary = library
        return library
    }
}
