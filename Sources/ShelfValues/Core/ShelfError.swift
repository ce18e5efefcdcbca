import Foundation

/// An error shelf reports to a person: what went wrong, where, and what to do. Its kind decides
/// the exit code (sysexits), so scripts can tell a broken file from a missing plugin.
public struct ShelfError: Error, CustomStringConvertible {
    public enum Kind: Int32, Sendable {
        case failure = 1
        case usage = 64
        case badData = 65
        case noInput = 66
        case unavailable = 69
        case software = 70
        case ioError = 74
        case temporary = 75
        case permission = 77
        case cancelled = 130
    }

    public var kind: Kind
    public var message: String
    /// The file, URL or plugin concerned, when there is one.
    public var subject: String?
    /// What the person can do about it, in each face's terms (a command on a terminal, a page or a button in the
    /// browser): the host's words module says it (`ShelfError.words(for:)`).
    public var next: NextStep?
    /// What a person at a terminal can do about it; set, the same words for every face.
    public var hint: String? {
        get { next?.terminal }
        set { next = newValue.map(NextStep.init) }
    }
    /// The plugin's status (SHELF_E_*) when a plugin call failed, so callers can tell
    /// "protected by a DRM" from "broken" without reading the message.
    public var pluginStatus: Int32?

    /// `hint`: the same on every face (it names no command and no button).
    public init(_ kind: Kind, _ message: String, subject: String? = nil, hint: String? = nil) {
        self.init(kind, message, subject: subject, next: hint.map(NextStep.init))
    }

    /// `next`: what to do, said per face (`NextStep(terminal:browser:)`).
    public init(_ kind: Kind, _ message: String, subject: String? = nil, next: NextStep?) {
        self.kind = kind
        self.message = message
        self.subject = subject
        self.next = next
    }

    public var exitCode: Int32 { kind.rawValue }

    public var description: String {
        // An empty subject says nothing: never "shelf: : …".
        var line = subject.flatMap { $0.isEmpty ? nil : "\($0): \(message)" } ?? message
        if let hint { line += "\n  \(hint)" }
        return line
    }
}
