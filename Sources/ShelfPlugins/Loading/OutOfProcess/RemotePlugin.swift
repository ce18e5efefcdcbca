import CPluginChannel
import Foundation
import Glibc
import PluginAPI
import ShelfCore
import ShelfValues

/// A plugin that runs out of process: shelf-plugin-sandbox children, started on first use and kept for the
/// command, one per book file (Landlock lets a child read only the files named when it started), each confined to
/// read the plugin, the libraries, that book, and to write its own data and cache; the book's other files it asks
/// of shelf (CompanionFiles).
///
/// The host sees such a plugin through `LoadedPlugin` like any other: its descriptor is a copy of the child's
/// answer whose capability tables (RemoteTables) send each call over the channel. A call that crashes, exits or
/// hangs the child fails with one line naming the plugin and the call; the next call starts a new child.
/// Unchecked Sendable: the child, its channel and what it said (name, id, tables, failure) are used under `lock`, one
/// call at a time; the settings are constant.
final class RemotePlugin: @unchecked Sendable {
    let path: String
    /// The plugin's name and id once known, for the one line.
    private(set) var displayName: String
    private(set) var id: String?
    /// How long a child may stay silent in one call, and whether it is confined (PluginPlacement).
    let deadline: TimeInterval
    let callLimit: TimeInterval
    let memoryLimit: UInt64
    let confined: Bool
    /// The environment its children start with (the `Shelf`'s), and which of the plugin's log lines are shown.
    let environment: [String: String]
    let logFilter: PluginLogFilter
    /// The capability ids the plugin offers, with their vtable sizes.
    private(set) var offered: [String: Int] = [:]
    /// The host services the registry made for the plugin (its directories, log, services), set at init.
    private(set) var host: UnsafePointer<shelf_host>?
    /// The line every call fails with once the plugin failed.
    private(set) var failure: String?
    private var children: [String: PluginChild] = [:]
    let lock = NSRecursiveLock()

    init(path: String, placement: PluginPlacement, logFilter: PluginLogFilter) {
        self.path = path
        displayName = "the plugin \((path as NSString).lastPathComponent)"
        deadline = placement.deadline
        callLimit = placement.callLimit
        memoryLimit = placement.memoryLimit
        confined = placement.confined
        environment = placement.environment
        self.logFilter = logFilter
    }

    /// The RemotePlugin a call on this thread is going to (set by `LoadedPlugin.call`), for the calls of the ABI
    /// that carry no handle (probe, open, describe, connect, init).
    static var current: RemotePlugin? {
        shelf_channel_current().map { Unmanaged<RemotePlugin>.fromOpaque($0).takeUnretainedValue() }
    }

    func during<T>(_ body: () throws -> T) rethrows -> T {
        let previous = shelf_channel_current()
        shelf_channel_set_current(Unmanaged.passUnretained(self).toOpaque())
        defer { shelf_channel_set_current(previous) }
        return try body()
    }

    // MARK: The descriptor

    /// Loads the plugin in a child of its own and builds the descriptor the host reads, from the child's answer.
    /// That child only describes: the calls run in children confined with the plugin's folders (`child(for:)`).
    func describe() throws -> UnsafePointer<shelf_plugin_descriptor> {
        lock.lock()
        defer { lock.unlock() }
        let child = try PluginChild.start(executable: try SandboxExecutable.path(), environment: environment)
        defer { child.stop() }
        let answer = try load(child, inputs: [], writeRoots: [])
        return buildDescriptor(answer)
    }

    private func load(_ child: PluginChild, inputs: [String], writeRoots: [String]) throws -> ChannelMessage {
        let reads =
            PluginFolder.reads(plugin: path, directories: try? ShelfDirectories(environment: environment))
            + SandboxExecutable.runtimeFolders + inputs
        let answer: ChannelMessage
        do {
            answer = try child.call(
                SHELF_OP_LOAD,
                [
                    .string(path), .string(reads.joined(separator: "\n")),
                    .string(writeRoots.joined(separator: "\n")), .int(confined ? 1 : 0),
                    .int(Int64(clamping: memoryLimit))
                ],
                deadline: deadline, limit: callLimit, services: { _ in nil })
        } catch let end as PluginChild.End {
            throw LoadedPlugin.LoadFailure(path: path, reason: "\(end) while loading")
        }
        guard answer.status == SHELF_OK else {
            throw LoadedPlugin.LoadFailure(path: path, reason: answer.string(1) ?? "cannot be loaded")
        }
        if let report = answer.string(Self.described + 12) { Confinement.note(report) }
        return answer
    }

    /// Where the descriptor begins in LOAD's reply: after the status, message and location.
    private static let described = 3

    private func buildDescriptor(_ answer: ChannelMessage) -> UnsafePointer<shelf_plugin_descriptor> {
        let b = Self.described
        let numbers = answer.bytes(b)
        func number(_ i: Int) -> Int64 {
            numbers.count >= (i + 1) * 8 ? numbers.loadUnaligned(fromByteOffset: i * 8, as: Int64.self) : 0
        }
        var offered: [String: Int] = [:]
        for line in (answer.string(b + 11) ?? "").split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let size = Int(parts[1]) { offered[String(parts[0])] = size }
        }
        func list(_ i: Int) -> [String]? { answer.string(b + i).map { $0.split(separator: "\n").map(String.init) } }
        return buildDescriptor(
            structSize: Int(number(0)), abi: (number(1), number(2)), flags: UInt64(bitPattern: number(3)),
            strings: (1...7).map { answer.string(b + $0) }, lists: [list(8), list(9), list(10)], offered: offered)
    }

    /// The descriptor of a plugin the registry cache knows: no child is started until a call needs one.
    func descriptor(known: PluginDescriptor, capabilities: [String]) -> UnsafePointer<shelf_plugin_descriptor> {
        lock.lock()
        defer { lock.unlock() }
        var offered: [String: Int] = [:]
        for id in capabilities { offered[id] = KnownExtension.all.first { $0.id == id }?.size }
        return buildDescriptor(
            structSize: known.structSize, abi: (Int64(known.abiMajor), Int64(known.abiMinor)),
            flags: known.concurrentHandles ? 1 : 0,
            strings: [known.id, known.name, known.version, known.license, known.vendor, known.url, known.description],
            lists: [known.mediaTypes, known.fileExtensions, known.services], offered: offered)
    }

    /// A descriptor in shelf's memory, as plugin.h lays it out, whose tables are RemoteTables'.
    private func buildDescriptor(
        structSize: Int, abi: (Int64, Int64), flags: UInt64, strings: [String?], lists: [[String]?],
        offered: [String: Int]
    ) -> UnsafePointer<shelf_plugin_descriptor> {
        func string(_ text: String?) -> UnsafePointer<CChar>? { text.map { UnsafePointer(strdup($0)) } }
        func list(_ items: [String]?) -> UnsafePointer<UnsafePointer<CChar>?>? {
            guard let items else { return nil }
            let pointers = items.map { UnsafePointer(strdup($0)) } + [nil]
            let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: pointers.count)
            array.initialize(from: pointers, count: pointers.count)
            return UnsafePointer(array)
        }
        let d = UnsafeMutablePointer<shelf_plugin_descriptor>.allocate(capacity: 1)
        d.initialize(to: shelf_plugin_descriptor())
        d.pointee.struct_size = UInt32(min(max(structSize, 0), MemoryLayout<shelf_plugin_descriptor>.size))
        d.pointee.abi_major = UInt16(truncatingIfNeeded: abi.0)
        d.pointee.abi_minor = UInt16(truncatingIfNeeded: abi.1)
        d.pointee.flags = flags
        d.pointee.id = string(strings[0])
        d.pointee.name = string(strings[1])
        d.pointee.version = string(strings[2])
        d.pointee.license = string(strings[3])
        d.pointee.vendor = string(strings[4])
        d.pointee.url = string(strings[5])
        d.pointee.description = string(strings[6])
        d.pointee.media_types = list(lists[0])
        d.pointee.file_extensions = list(lists[1])
        d.pointee.services = list(lists[2])
        d.pointee.`init` = RemoteTables.initialise
        d.pointee.get_extension = RemoteTables.extensionTable
        self.offered = offered
        if let name = strings[1], let id = strings[0] {
            displayName = "the plugin \"\(name)\" (\(id))"
            self.id = id
        }
        return UnsafePointer(d)
    }

    /// Whether the plugin offers the capability `id` (as its child said, or the registry cache knew).
    func offers(_ id: String) -> Bool { offered[id] != nil }

    /// Init from the host: the services are kept; each child calls the plugin's init when it starts.
    func initialise(host: UnsafePointer<shelf_host>) {
        lock.lock()
        defer { lock.unlock() }
        self.host = host
    }

    // MARK: Children and calls

    /// The child whose confinement lets it read the file `input` (nil for calls without an input: connectors).
    func child(for input: String?) throws -> PluginChild {
        try child(reading: input.map { [$0] } ?? [])
    }

    /// How many children a plugin keeps at once: beyond it, those that hold no handle are stopped (`shelf add` of
    /// a hundred books starts a child for each, since each reads only its own book).
    static let keptChildren = 4

    /// A child that may read the files `inputs` besides the plugin's own: one child for each set of files.
    func child(reading inputs: [String]) throws -> PluginChild {
        if let failure { throw RemoteCallFailure(line: failure) }
        let key = inputs.joined(separator: "\n")
        if let child = children[key], child.end == nil { return child }
        if children.count >= Self.keptChildren {
            for (other, idle) in children where idle.handles.load(ordering: .relaxed) == 0 {
                idle.stop()
                children[other] = nil
            }
        }
        let child = try PluginChild.start(
            executable: try SandboxExecutable.path(), environment: environment, inputs: inputs)
        var writeRoots: [String] = []
        if let host, let data = host.pointee.data_dir, let cache = host.pointee.cache_dir {
            writeRoots = [String(cString: data), String(cString: cache)]
        }
        do {
            _ = try load(child, inputs: inputs, writeRoots: writeRoots)
            if host != nil {
                let answer = try call(
                    child, SHELF_OP_INIT,
                    [.string(writeRoots.first), .string(writeRoots.last), .string(ShelfVersion.string)],
                    what: "init")
                guard answer.status == SHELF_OK else {
                    child.stop()
                    throw RemoteCallFailure(
                        line: disable(
                            "\(displayName) refused to start: init failed: \(answer.string(1) ?? "no message")"))
                }
            }
        } catch let failure as LoadedPlugin.LoadFailure {
            throw RemoteCallFailure(line: disable("\(displayName) could not start: \(failure.reason)"))
        }
        children[key] = child
        return child
    }

    /// Makes one call on `child`. A child that crashes, exits or hangs is gone: the call fails with the one line that
    /// names the plugin and `what` ("render of chapter-3.xhtml (file book.fb2)"), and the next call starts a new
    /// child (in `shelf serve` the next request finds the plugin working, not disabled until a restart). A plugin
    /// whose children fail `failuresInARow` times without one call answered between is disabled for the command.
    func call(_ child: PluginChild, _ op: shelf_channel_op, _ fields: [ChannelField], what: @autoclosure () -> String)
        throws -> ChannelMessage
    {
        if let failure { throw RemoteCallFailure(line: failure) }
        if let end = child.end {
            // A handle of a child that ended before this call (its book is opened again by the next call that
            // opens it): not a new failure of the plugin.
            throw RemoteCallFailure(
                line:
                    "\(displayName) \(end) earlier, and \(what()) was in that process; it is started again for the next call",
                restarts: true)
        }
        do {
            let answer = try child.call(
                op, fields, deadline: deadline, limit: callLimit,
                services: { [self] request in ChildServices.answer(request, plugin: self, child: child) })
            // A new child's init answers whatever the plugin does next: only a call of the patron's counts.
            if op != SHELF_OP_INIT { failedInARow = 0 }
            return answer
        } catch PluginChild.End.cancelled {
            // Stopped because it did not stop when asked: the call is cancelled, the plugin not at fault.
            forget(child)
            throw CancelledCall()
        } catch let end as PluginChild.End {
            forget(child)
            failedInARow += 1
            let line = "\(displayName) \(end) in \(what())"
            guard failedInARow < Self.failuresInARow else {
                throw RemoteCallFailure(
                    line: disable("\(line); it failed \(failedInARow) times in a row and is disabled for this command"))
            }
            throw RemoteCallFailure(line: "\(line); shelf starts it again for the next call", restarts: true)
        }
    }

    /// How many failed children in a row disable a plugin: a plugin that crashes on every call is not restarted
    /// for ever (each hang costs SHELF_PLUGIN_TIMEOUT).
    static let failuresInARow = 3
    private var failedInARow = 0

    /// Drops a child that ended: the next call for its files starts another.
    private func forget(_ child: PluginChild) {
        for (key, kept) in children where kept === child { children[key] = nil }
    }

    /// Records the failure and stops the plugin's other children: nothing more is asked of it in this command.
    private func disable(_ line: String) -> String {
        if failure == nil { failure = line }
        for child in children.values { child.stop() }
        children.removeAll()
        return failure!
    }
}

/// A call whose plugin went on after it was cancelled (Ctrl-C, or the caller's own cancellation), so its process was
/// stopped: the call fails as cancelled.
struct CancelledCall: Error, CustomStringConvertible {
    var description: String { "cancelled" }
}

/// A call into an out-of-process plugin that could not be made: the one line to show, and whether the plugin is
/// started again for the next call (its process ended) or disabled.
struct RemoteCallFailure: Error, CustomStringConvertible {
    let line: String
    var restarts = false
    var description: String { line }

    /// Whether the last call on this thread failed because its plugin's process ended and is started again: the
    /// status that crosses the ABI (SHELF_E_INTERNAL) cannot say it, and PluginCall makes the error from it.
    static func note(restarts: Bool) { Thread.current.threadDictionary[noteKey] = restarts }

    /// The note of the last call on this thread, cleared.
    static func takeNote() -> Bool {
        defer { Thread.current.threadDictionary[noteKey] = nil }
        return Thread.current.threadDictionary[noteKey] as? Bool ?? false
    }

    private static let noteKey = "org.shelf.plugin-process-restarts"
}
