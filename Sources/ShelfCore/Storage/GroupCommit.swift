import Foundation

/// Small writes from many threads committed together: a write that arrives while a commit is in flight waits for it
/// to end and goes into the next transaction with every other write that arrived meanwhile, so that concurrent
/// writers share one sync instead of queueing for one each. The durability is the connection's (full sync): each
/// `write` returns once the transaction holding it has committed, and throws what failed it.
///
/// Writes are keyed (a book's place): a write replaces the queued write of the same key, the newest one wins as it
/// would written one after the other, and both callers are answered by the transaction that holds it. Each write
/// runs in a savepoint of its own, so one that fails (a book removed meanwhile) fails alone.
///
/// Unchecked Sendable: `pending` and `committing` are read and written under `condition`'s lock; a batch's entries
/// are changed under it too until the batch is taken, then only by the thread committing it.
public final class GroupCommit: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let condition = NSCondition()
    /// The writes waiting for the next transaction; nil when there are none.
    private var pending: Batch?
    /// Whether a transaction is in flight (its thread holds no lock of ours meanwhile).
    private var committing = false
    /// How many calls wait for the next transaction, and how many transactions were committed (or failed): what
    /// the tests watch to queue saves in a known order and to count the transactions they took.
    var waiting: Int { condition.withLock { pending?.callers ?? 0 } }
    var transactions: Int { condition.withLock { committed } }
    private var committed = 0

    public init(_ connection: SQLiteConnection) { self.connection = connection }

    private final class Entry {
        var write: () throws -> Void
        var failure: Error?
        init(_ write: @escaping () throws -> Void) { self.write = write }
    }

    private final class Batch {
        var entries: [Entry] = []
        var byKey: [String: Entry] = [:]
        var callers = 0
        var done = false
        /// Why the transaction itself failed (BEGIN or COMMIT): every write of the batch failed with it.
        var failure: Error?
    }

    /// Runs `write` (statements on the connection) in the next transaction of the group, in place of a queued write
    /// of the same `key`, and returns once that transaction committed. Inside a transaction of this thread it runs at
    /// once, as part of it: waiting for another thread's commit there would wait for ourselves.
    public func write(key: String, _ write: @escaping () throws -> Void) throws {
        if connection.isInTransactionOnThisThread { return try connection.transaction(write) }
        condition.lock()
        defer { condition.unlock() }
        let batch = pending ?? Batch()
        pending = batch
        batch.callers += 1
        let entry: Entry
        if let queued = batch.byKey[key] {
            queued.write = write
            entry = queued
        } else {
            entry = Entry(write)
            batch.entries.append(entry)
            batch.byKey[key] = entry
        }
        // Whoever finds no transaction in flight commits the pending batch (ours: a batch ahead of it is done or
        // in flight) for every write in it; the others wait for it.
        while !batch.done {
            if committing {
                condition.wait()
                continue
            }
            committing = true
            pending = nil
            condition.unlock()
            commit(batch)
            condition.lock()
            committing = false
            committed += 1
            batch.done = true
            condition.broadcast()
        }
        if let failure = batch.failure ?? entry.failure { throw failure }
    }

    /// One transaction for the whole batch, each write in a savepoint of its own.
    private func commit(_ batch: Batch) {
        do {
            try connection.transaction {
                for entry in batch.entries {
                    do { try connection.transaction(entry.write) } catch { entry.failure = error }
                }
            }
        } catch {
            batch.failure = error
        }
    }
}
