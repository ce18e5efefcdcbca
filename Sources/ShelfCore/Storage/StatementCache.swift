/// The statements a connection compiled for `execute`, `query` and `scalar`, by SQL text, least recently used
/// first out. A sync runs the same INSERT a thousand times; compiling it each time was a tenth of the sync.
///
/// Not thread-safe by itself: the connection touches it only under its lock. Statements leave it finalized
/// (evicted, or all at once when the connection closes), never while running: a run ends with its reset.
struct StatementCache {
    private struct Slot {
        var statement: CompiledStatement
        var lastUse: UInt64
    }

    let capacity: Int
    private var slots: [String: Slot] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { slots.count }

    /// The statement compiled for `sql`, or nil when it is not (or no longer) cached.
    mutating func lookUp(_ sql: String) -> CompiledStatement? {
        clock += 1
        // One hash of the text per run (it is often a few hundred bytes).
        guard let index = slots.index(forKey: sql) else { return nil }
        slots.values[index].lastUse = clock
        return slots.values[index].statement
    }

    /// Keeps `statement`, finalizing the least recently used one when full. A cache of a few dozen makes the linear
    /// search for the oldest cheaper than keeping an order on every use.
    mutating func keep(_ statement: CompiledStatement) {
        if slots.count >= capacity, let oldest = slots.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            oldest.value.statement.finalize()
            slots[oldest.key] = nil
        }
        clock += 1
        slots[statement.sql] = Slot(statement: statement, lastUse: clock)
    }

    /// Finalizes every statement (before the connection closes, so that sqlite can close it at once).
    mutating func removeAll() {
        for slot in slots.values { slot.statement.finalize() }
        slots = [:]
    }
}
