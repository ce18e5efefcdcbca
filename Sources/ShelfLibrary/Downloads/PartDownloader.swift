import ShelfPlugins
import ShelfCore
import Foundation
import Glibc

/// Downloads the tracks ("parts") of a remote audiobook into the cache: several at once, each
/// resumable (the HTTP client keeps `.part` files and resumes with Range), progress per part and
/// in total. A part refused with 401 or 403 makes the manifest be fetched again (signed URLs and
/// session ids expire) and the part retried with its new URL.
/// Unchecked Sendable: the parts and counters are kept under `lock`, the callbacks called under `callbackLock`; the settings (`concurrency`, `onChange`, `refreshURLs`) are set before `run` starts its threads.
public final class PartDownloader: @unchecked Sendable {

    public let manifestURL: URL
    public let directory: URL
    public let client: HTTPClient
    public var concurrency: Int
    /// Called (from download threads, serialised) after every change of a part.
    public var onChange: ((DownloadPart) -> Void)?
    /// Refetches the manifest and returns the tracks' new URLs, in reading order.
    public var refreshURLs: (() throws -> [URL])?

    private let lock = NSCondition()
    private var parts: [DownloadPart]
    private var refreshes = 0
    private var cancelled = false
    private let callbackLock = NSLock()

    public static let maxManifestRefreshes = 3

    public init(manifestURL: URL, trackURLs: [URL], directory: URL, client: HTTPClient, concurrency: Int = 3) {
        self.manifestURL = manifestURL
        self.directory = directory
        self.client = client
        self.concurrency = max(1, min(concurrency, 8))
        parts = trackURLs.enumerated().map { i, url in
            let dest = Self.destination(of: i, url: url, in: directory)
            let done = FileManager.default.fileExists(atPath: dest.path)
            // No file (or none readable) is nothing downloaded yet: the part starts from its first byte.
            let size =
                (try? FileManager.default.attributesOfItem(atPath: done ? dest.path : dest.path + ".part")[.size]
                as? NSNumber)?.int64Value ?? 0
            return DownloadPart(
                index: i, url: url, destination: dest, state: done ? .complete : .queued, bytes: size,
                total: done ? size : nil, reason: nil)
        }
    }

    public var snapshot: [DownloadPart] { lock.locked { parts } }

    /// The file track `index` (at `url`, whose extension it keeps) is stored as in `directory`: `part-0001.mp3`…
    /// Whoever looks for a downloaded track (the browser's player) asks this, so the name is made in one place.
    public static func destination(of index: Int, url: URL, in directory: URL) -> URL {
        let ext =
            url.pathExtension.isEmpty ? "audio" : url.pathExtension.lowercased().filter { $0.isLetter || $0.isNumber }
        return directory.appendingPathComponent(String(format: "part-%04d.%@", index + 1, ext))
    }

    public func isComplete(_ index: Int) -> Bool {
        lock.locked { parts.indices.contains(index) && parts[index].state == .complete }
    }

    public func localFile(_ index: Int) -> String? {
        lock.locked {
            parts.indices.contains(index) && parts[index].state == .complete ? parts[index].destination.path : nil
        }
    }

    public var totals: (bytes: Int64, total: Int64?, complete: Int, count: Int) {
        lock.locked {
            let known = parts.allSatisfy { $0.total != nil }
            return (
                parts.reduce(0) { $0 + $1.bytes }, known ? parts.reduce(0) { $0 + ($1.total ?? 0) } : nil,
                parts.filter { $0.state == .complete }.count, parts.count
            )
        }
    }

    /// Stops after the parts in flight reach a point where they can resume (they stay `.part`).
    public func cancel() { lock.locked { cancelled = true } }

    /// Stopped by `cancel()` or by the process's own interruption (Ctrl-C sets HostServices.cancelRequested):
    /// a download never outlives the command the patron interrupted.
    private var isCancelled: Bool { lock.locked { cancelled } || HostServices.cancelRequested }

    /// Downloads every part not yet complete, `concurrency` at a time, in reading order (so the
    /// first chapters can play while later ones arrive). Returns when all have finished or failed.
    public func run() {
        // Without the folder each part fails writing its file, and says so in its reason.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let group = DispatchGroup()
        for _ in 0..<concurrency {
            group.enter()
            Thread.detachNewThread { [self] in
                worker()
                group.leave()
            }
        }
        group.wait()
    }

    /// Starts `run` on a thread of its own and returns at once.
    public func start() {
        Thread.detachNewThread { [self] in run() }
    }

    public var allDone: Bool {
        lock.locked { parts.allSatisfy { $0.state == .complete || $0.state == .failed || $0.state == .paused } }
    }

    private func worker() {
        while true {
            let next: DownloadPart? = lock.locked {
                guard !cancelled, !HostServices.cancelRequested,
                    let i = parts.firstIndex(where: { $0.state == .queued })
                else { return nil }
                parts[i].state = .downloading
                return parts[i]
            }
            guard let part = next else { return }
            notify(part.index)
            download(part.index)
        }
    }

    private func download(_ index: Int) {
        var attempt = 0
        while true {
            attempt += 1
            let part = lock.locked { parts[index] }
            if part.url.isFileURL {
                copyLocal(index, from: part.url, to: part.destination)
                return
            }
            do {
                let request = HTTPRequest(.get, part.url)
                let result = try client.download(
                    request, to: part.destination,
                    progress: { [self] p in
                        lock.locked {
                            parts[index].bytes = p.bytesWritten
                            parts[index].total = p.totalBytes
                        }
                        notify(index)
                    }, isCancelled: { [self] in isCancelled })
                lock.locked {
                    parts[index].state = .complete
                    parts[index].bytes = result.bytes
                    parts[index].total = result.bytes
                    parts[index].reason = nil
                }
                notify(index)
                return
            } catch let error as HTTPError {
                if let code = error.status, code == 401 || code == 403, attempt <= Self.maxManifestRefreshes,
                    let newURL = refreshedURL(index, failed: part.url)
                {
                    lock.locked { parts[index].url = newURL }
                    continue
                }
                let isCancel: Bool = {
                    if case .cancelled = error.kind { return true }; return false
                }()
                lock.locked {
                    parts[index].state = isCancel ? .paused : .failed
                    parts[index].reason = isCancel ? "stopped; it resumes where it stopped" : error.description
                }
                notify(index)
                return
            } catch {
                lock.locked {
                    parts[index].state = .failed
                    parts[index].reason = "\(error)"
                }
                notify(index)
                return
            }
        }
    }

    /// A track of a catalog on disk (a file:// manifest): copied, as a download would be.
    private func copyLocal(_ index: Int, from source: URL, to destination: URL) {
        let temp = destination.path + ".part"
        do {
            // A leftover from an earlier copy, usually absent; the copy below fails if it is in the way.
            try? FileManager.default.removeItem(atPath: temp)
            try FileManager.default.copyItem(atPath: source.path, toPath: temp)
            guard rename(temp, destination.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            // Only for the progress figures: the copy itself succeeded.
            let size =
                (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value
                ?? 0
            lock.locked {
                parts[index].state = .complete
                parts[index].bytes = size
                parts[index].total = size
                parts[index].reason = nil
            }
        } catch {
            lock.locked {
                parts[index].state = .failed
                parts[index].reason = "the track \(source.path) cannot be copied (\(error.localizedDescription))"
            }
        }
        notify(index)
    }

    /// Fetches the manifest again (once for every part that needs it at the same moment) and
    /// returns this part's new URL.
    private func refreshedURL(_ index: Int, failed: URL) -> URL? {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        // Another worker refreshed since this part's request went out: use its result.
        let current = lock.locked { parts[index].url }
        if current != failed { return current }
        // No fresh address: the part fails with the refusal it had (401 or 403), which the download reports.
        guard let refresh = refreshURLs, let urls = try? refresh(), urls.indices.contains(index) else { return nil }
        lock.locked {
            refreshes += 1
            for (i, u) in urls.enumerated() where parts.indices.contains(i) { parts[i].url = u }
        }
        return urls[index]
    }

    private func notify(_ index: Int) {
        guard let onChange else { return }
        let part = lock.locked { parts[index] }
        callbackLock.lock()
        onChange(part)
        callbackLock.unlock()
    }
}

extension NSCondition {
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
