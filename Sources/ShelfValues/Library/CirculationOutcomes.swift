import Foundation

// What a circulation call did, as values a front end reads (the library subsystem's `Circulation` and the facade's
// both name them `Circulation.BorrowOutcome`, ... ).

/// How sure a patron's words must be before a command acts on the title they name (`Circulation.Naming`).
public enum CirculationNaming {
    /// A command that only reads (`book`, `download`): a unique part of an identifier or title is enough.
    case reading
    /// A command that changes what the library holds for the patron (`borrow`, `reserve`, `return`,
    /// `cancel-hold`): the exact identifier or title; a unique part only when `confirm` (asked on a terminal,
    /// nil elsewhere) says yes.
    case changing(command: String, confirm: ((CatalogEntry) -> Bool)?)
}

/// What `borrow` did (`Circulation.BorrowOutcome`).
public enum BorrowOutcome {
    case loaned(CatalogEntry)
    case alreadyOnLoan(CatalogEntry)
    /// No copy free: nothing was requested (or a hold the server placed was cancelled).
    case unavailable(CatalogEntry, holdCancelled: Bool)
    /// Free to download, no loan needed.
    case openAccess(CatalogEntry)
}

/// What `reserve` did (`Circulation.ReserveOutcome`).
public enum ReserveOutcome {
    case placed(HoldRecord)
    case alreadyReserved(HoldRecord)
    /// A copy is free: nothing was reserved; borrow it instead.
    case availableNow(CatalogEntry)
    /// The hold came back as a loan (a copy came free meanwhile).
    case loaned(CatalogEntry)
}

/// A downloaded loan or open-access title (`Circulation.DownloadOutcome`).
public struct DownloadOutcome: Sendable {
    public var entry: CatalogEntry
    public var path: String
    public var mediaType: String
    public var bytes: Int64
    /// False when no installed plugin opens the file (DRM such as Adobe ACSM or LCP): it is kept for a tool that can.
    public var supported: Bool
    /// The DRM or vendor scheme in the way, in words.
    public var protection: String?
    /// Where the file came from (after redirects and fulfilment steps).
    public var source: URL?
    /// For an audiobook manifest: its tracks, downloaded next to it (see AudiobookParts).
    public var parts: [DownloadPart]

    public init(
        entry: CatalogEntry, path: String, mediaType: String, bytes: Int64, supported: Bool,
        protection: String?, source: URL? = nil, parts: [DownloadPart] = []
    ) {
        self.entry = entry
        self.path = path
        self.mediaType = mediaType
        self.bytes = bytes
        self.supported = supported
        self.protection = protection
        self.source = source
        self.parts = parts
    }
}

/// What one circulation call did, whichever it was: what `shelf borrow`, `reserve`, `return` and `cancel-hold` and the
/// browser app's buttons report, in the words of `Sources/Host/Words/CirculationWords.swift`.
public enum CirculationResult {
    case borrowed(BorrowOutcome)
    case reserved(ReserveOutcome)
    case returned(CatalogEntry)
    case cancelled(CatalogEntry)

    /// The call, as the command and the API name it: borrow, reserve, return, cancel-hold.
    public var action: String {
        switch self {
        case .borrowed: return "borrow"
        case .reserved: return "reserve"
        case .returned: return "return"
        case .cancelled: return "cancel-hold"
        }
    }

    /// What the library did, in one word (docs/json.md, Outcome's `result`).
    public var result: String {
        switch self {
        case .borrowed(.loaned), .reserved(.loaned): return "loaned"
        case .borrowed(.alreadyOnLoan): return "already-on-loan"
        case .borrowed(.openAccess): return "open-access"
        case .borrowed(.unavailable): return "unavailable"
        case .reserved(.placed): return "reserved"
        case .reserved(.alreadyReserved): return "already-reserved"
        // Free because the copy is the patron's own loan: there is nothing to borrow, only to read.
        case .reserved(.availableNow(let entry)) where entry.availability.state == .loaned: return "already-on-loan"
        case .reserved(.availableNow): return "available-now"
        case .returned: return "returned"
        case .cancelled: return "cancelled"
        }
    }

    /// The title as the library says now.
    public var entry: CatalogEntry {
        switch self {
        case .borrowed(.loaned(let entry)), .borrowed(.alreadyOnLoan(let entry)), .borrowed(.openAccess(let entry)),
            .borrowed(.unavailable(let entry, _)), .reserved(.availableNow(let entry)), .reserved(.loaned(let entry)),
            .returned(let entry), .cancelled(let entry):
            return entry
        case .reserved(.placed(let hold)), .reserved(.alreadyReserved(let hold)): return hold.entry
        }
    }

    /// The hold placed or found, for a reserve.
    public var hold: HoldRecord? {
        switch self {
        case .reserved(.placed(let hold)), .reserved(.alreadyReserved(let hold)): return hold
        default: return nil
        }
    }

    /// Whether the library did not do what was asked (no copy to borrow, a copy free instead of a hold): `shelf`
    /// exits 69 then.
    public var refused: Bool { result == "unavailable" || result == "available-now" }
}

/// Where a loan's download is: what `shelf download` says at its end and the browser app hears on its event stream
/// (`download`) as it goes.
public enum DownloadState {
    case started(CatalogEntry)
    /// `fraction`: 0...1 of the bytes, when the size is known.
    case progress(CatalogEntry, fraction: Double)
    case done(DownloadOutcome)
    case failed(CatalogEntry, ShelfError)
    /// An audiobook listened to as it arrives: its first part is here and it is on the shelf as `book` (its id),
    /// while the other parts go on downloading.
    case playable(CatalogEntry, book: String)

    public var entry: CatalogEntry {
        switch self {
        case .started(let entry), .progress(let entry, _), .failed(let entry, _), .playable(let entry, _): return entry
        case .done(let outcome): return outcome.entry
        }
    }

    /// The state in one word (the event's `state`): started, progress, playable, done, failed.
    public var name: String {
        switch self {
        case .started: return "started"
        case .progress: return "progress"
        case .done: return "done"
        case .failed: return "failed"
        case .playable: return "playable"
        }
    }
}
