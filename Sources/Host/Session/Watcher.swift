internal import ShelfLibrary
import Foundation

/// `shelf watch`'s watcher, as `LibrarySession.watcher(interval:)` sets it up: the library's
/// (`ShelfLibrary.Watcher`: back-off, the command deadline per pass, delivery to the desktop), run through the
/// facade's sync pipeline.
///
/// One per `shelf watch` process (its `WatchLock` refuses a second), run on the thread that calls `run`; nothing
/// else calls it meanwhile.
public final class Watcher {
    public typealias Cycle = WatchCycle

    let watcher: ShelfLibrary.Watcher

    init(_ watcher: ShelfLibrary.Watcher) { self.watcher = watcher }

    /// Runs passes until `cycles` have run (nil: until Ctrl-C or SIGTERM), waiting the interval in between;
    /// `report` sees each pass.
    public func run(cycles: Int?, report: (Cycle) -> Void) throws { try watcher.run(cycles: cycles, report: report) }
}
