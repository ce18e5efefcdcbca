@testable import Host
@testable import ShelfPlugins
import Foundation
import PluginAPI
import XCTest

/// plugin.h: `is_cancelled` speaks of the call in flight on the asking thread.
final class CallCancellationTests: XCTestCase {
    func testCancellingOneCallLeavesTheCallOnAnotherThreadRunning() throws {
        // The host services table is made once and only read, by both threads (plugin.h: callable from any thread).
        nonisolated(unsafe) let host = HostServices.make(
            pluginID: "org.example.test", dataDirectory: NSTemporaryDirectory(),
            cacheDirectory: NSTemporaryDirectory())
        let isCancelled = try XCTUnwrap(host.pointee.is_cancelled)
        let progress = try XCTUnwrap(host.pointee.progress)
        let first = CallCancellation(), second = CallCancellation()
        let bothInside = DispatchGroup(), cancelled = DispatchSemaphore(value: 0), done = DispatchGroup()
        // Written by the two threads under `lock`, read after both are done.
        nonisolated(unsafe) var seen: [String: (before: Int32, after: Int32, progress: shelf_status)] = [:]
        let lock = NSLock()
        for (name, token) in [("first", first), ("second", second)] {
            bothInside.enter()
            done.enter()
            Thread {
                token.during {
                    let before = isCancelled(host)
                    bothInside.leave()
                    cancelled.wait()
                    cancelled.signal()  // for the other thread
                    let after = isCancelled(host)
                    let status = progress(host, 0.5, nil)
                    lock.lock(); seen[name] = (before, after, status); lock.unlock()
                }
                done.leave()
            }.start()
        }
        bothInside.wait()
        first.cancel()
        cancelled.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(seen["first"]?.before, 0)
        XCTAssertEqual(seen["first"]?.after, 1)
        XCTAssertEqual(seen["first"]?.progress, SHELF_E_CANCELLED)
        XCTAssertEqual(seen["second"]?.after, 0, "a call on another thread goes on")
        XCTAssertEqual(seen["second"]?.progress, SHELF_OK)
        XCTAssertEqual(isCancelled(host), 0, "a thread with no call in flight")
    }
}
