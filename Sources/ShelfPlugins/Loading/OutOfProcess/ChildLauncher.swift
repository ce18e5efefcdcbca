import Foundation
import Glibc

/// The one thread that starts every plugin child, and lives as long as shelf.
///
/// A child asks the kernel to end it when its parent ends (PR_SET_PDEATHSIG, main.c), and for Linux the parent is
/// the *thread* that started it, not the process. In `shelf serve` every connection has a thread of its own:
/// a child started while answering a request was killed when that connection closed, and its plugin then
/// answered "crashed (signal 9, SIGKILL)" to the next request. Started from here, a child ends with shelf and
/// never earlier.
final class ChildLauncher: @unchecked Sendable {
    // Unchecked Sendable: `jobs` is used only under `condition`; a job's result is read after its semaphore.
    static let shared = ChildLauncher()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in loop() }
        thread.name = "shelf plugin launcher"
        thread.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Runs `start` (a posix_spawn) on the launcher's thread and returns what it returned.
    func run(_ start: @escaping () -> Int32) -> Int32 {
        // Unchecked Sendable: written by the launcher before `done` is signalled, read after.
        final class Box: @unchecked Sendable {
            var value: Int32 = 0
        }
        let result = Box()
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        jobs.append {
            result.value = start()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result.value
    }
}
