internal import ShelfCore
internal import ShelfPlugins

// What a front end's process sets up around the session API, as calls on `Shelf`: the version it says, Ctrl-C,
// plugin progress, the network deadline of a one-shot command. The front end names no host service for them.

extension Shelf {
    /// shelf's version ("0.1.0"), as plugins are told it at init.
    public static var version: String { ShelfVersion.string }

    /// Installs the Ctrl-C handler: the first asks every call in flight to stop (plugins poll `is_cancelled`,
    /// transfers and waits poll the flag), a second ends shelf with 130. The handler only sets a `sig_atomic_t`.
    public static func installInterruptHandler() { HostServices.installInterruptHandler() }

    /// Whether Ctrl-C asked every call in flight to stop.
    public static var interruptRequested: Bool { HostServices.cancelRequested }

    /// Where plugins' progress goes from now on: `show(pluginID, fraction, label)`, on any thread; a fraction
    /// below 0 is progress of unknown length. Nowhere unless a front end asks.
    public static func showPluginProgress(
        _ show: @escaping @Sendable (_ pluginID: String, _ fraction: Double, _ label: String?) -> Void
    ) {
        HostServices.progressSink = show
    }

    /// Starts one time limit for everything this process asks the network from now on (a one-shot command's), as
    /// long as SHELF_DEADLINE in this Shelf's environment says. A front end that serves many actions never calls it.
    public func beginCommandDeadline() {
        CommandDeadline.begin(seconds: CommandDeadline.configuredSeconds(in: environment))
    }
}
