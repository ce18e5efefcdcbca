import Foundation

/// The places the browser saves, written in turns per book: a save waits for a write that holds its place or a newer
/// one of the same book (a group commit). A write is a transaction with a full sync, milliseconds long; saves from
/// several windows at once (or a load test) would otherwise queue for one sync each. The newest place of a book
/// wins, as it would written one after the other, and each save is answered only once a write covering it ended,
/// so `shelf read` asked after the answer reads it (bench/web/run.sh measures the saves under load).
///
/// Unchecked Sendable: every member is read and written under `condition`'s lock.
final class PlaceSaves: @unchecked Sendable {
    private let condition = NSCondition()
    private var tickets = 0
    /// The newest save of each book not written yet: its ticket and its write.
    private var newest: [String: (ticket: Int, write: () throws -> Void)] = [:]
    /// Each book's last ticket written (saves up to it are covered), and the book being written.
    private var written: [String: Int] = [:]
    private var writing: Set<String> = []
    /// Recent writes that failed, by book: the tickets they covered and why, for the saves waiting on them.
    private var failures: [(book: String, tickets: ClosedRange<Int>, error: Error)] = []

    /// Saves through `write` (or through the write of a newer save of the same book), and returns once written.
    func save(book: String, _ write: @escaping () throws -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        tickets += 1
        let ticket = tickets
        newest[book] = (ticket, write)
        while writing.contains(book) { condition.wait() }
        if written[book, default: 0] >= ticket {
            if let failure = failures.last(where: { $0.book == book && $0.tickets.contains(ticket) }) {
                throw failure.error
            }
            return
        }
        // Nobody is writing this book: this save writes the newest place of it, for every save waiting.
        guard let batch = newest.removeValue(forKey: book) else { return }
        let from = written[book, default: 0] + 1
        writing.insert(book)
        condition.unlock()
        var failure: Error?
        do { try batch.write() } catch { failure = error }
        condition.lock()
        writing.remove(book)
        written[book] = batch.ticket
        if let failure {
            failures.append((book, from...batch.ticket, failure))
            if failures.count > 32 { failures.removeFirst() }
        }
        condition.broadcast()
        if let failure { throw failure }
    }
}
