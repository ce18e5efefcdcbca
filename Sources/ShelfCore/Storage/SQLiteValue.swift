import Foundation

/// One sqlite value, as sqlite stores it: the five storage classes and nothing else.
public enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case null
}

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// `init?(sqliteValue:)` answers nil when the stored class does not fit, so that a schema mistake surfaces as
/// an error naming the column instead of a silently wrong zero or empty string.
public protocol SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { get }
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
}

extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    // sqlite hands back an integer for a whole number stored in a column without REAL affinity.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .blob(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
            return
        }
        guard let value = Wrapped(sqliteValue: sqliteValue) else { return nil }
        self = .some(value)
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
