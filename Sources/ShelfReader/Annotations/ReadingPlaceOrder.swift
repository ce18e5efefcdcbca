import Foundation
import Readium

/// How far into a book a place is, to decide which of two reading positions wins: the furthest read.
/// The locator's `totalProgression` when it has one, else its position over the book's pages.
enum ReadingPlaceOrder {
    static func fraction(_ locator: Locator, pages: Int?) -> Double? {
        if let total = locator.locations.totalProgression, total.isFinite { return min(1, max(0, total)) }
        if let position = locator.locations.position, let pages, pages > 0 {
            return min(1, max(0, Double(position - 1) / Double(pages)))
        }
        return nil
    }

    /// True when `candidate` lies further into the book than `current`. Places that cannot be compared (no
    /// progression, no position) fall back to the later time.
    static func isFurther(
        _ candidate: Locator, at candidateTime: Date?, than current: Locator, at currentTime: Date?,
        pages: Int?
    ) -> Bool {
        if let a = fraction(candidate, pages: pages), let b = fraction(current, pages: pages) {
            if abs(a - b) > 1e-9 { return a > b }
            if let p = candidate.locations.position, let q = current.locations.position, p != q { return p > q }
            return false
        }
        guard let candidateTime else { return false }
        return currentTime.map { candidateTime > $0 } ?? true
    }

    /// The page counter for an adopted place: its position, of the book's known page count (or the count its
    /// progression implies).
    static func pageCounter(_ locator: Locator, knownPages: Int?) -> (page: Int, pages: Int) {
        let position = max(1, locator.locations.position ?? 1)
        if let knownPages, knownPages >= position { return (position, knownPages) }
        if let total = locator.locations.totalProgression, total > 0, position > 1 {
            return (position, max(position, Int((Double(position - 1) / total).rounded())))
        }
        return (position, max(position, knownPages ?? position))
    }
}
