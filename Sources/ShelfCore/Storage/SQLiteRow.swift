import Foundation

/// One result row, copied out of sqlite so that it stays valid after the statement moves on.
public struct SQLiteRow: Sendable {
    /// Column names and their positions, shared by every row of one result.
    final class Columns: Sendable {
        let names: [String]
        let positions: [String: Int]
        init(names: [String]) {
            self.names = names
            // The first column of a name wins, as in sqlite's own lookups.
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            self.positions = positions
        }
    }

    let columns: Columns
    public let values: [SQLiteValue]
    /// For error messages only.
    public let path: String
    public let label: String

    init(columns: Columns, values: [SQLiteValue], path: String, label: String) {
        self.columns = columns
        self.values = values
        self.path = path
        self.label = label
    }

    public var columnNames: [String] { columns.names }
    public var count: Int { values.count }

    /// The raw value at `index`; `.null` past the end, like sqlite's own column access.
    public subscript(_ index: Int) -> SQLiteValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The raw value of the column called `name`, or nil when the result has no such column.
    public subscript(_ name: String) -> SQLiteValue? {
        columns.positions[name].map { values[$0] }
    }

    /// The value at `index` as `T`; throws when the stored class does not fit (NULL into a non-optional,
    /// text into a number), naming the column.
    public func get<T: SQLiteValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw DatabaseError.misuse(path: path, label: label, "no column \(index) in a row of \(values.count)")
        }
        return try convert(values[index], column: columns.names[index])
    }

    /// The value of the column called `name` as `T`.
    public func get<T: SQLiteValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.positions[name] else {
            throw DatabaseError.misuse(path: path, label: label, "no column named \(name) in this result")
        }
        return try convert(values[index], column: name)
    }

    private func convert<T: SQLiteValueConvertible>(_ value: SQLiteValue, column: String) throws -> T {
        guard let converted = T(sqliteValue: value) else {
            throw DatabaseError.misuse(
                path: path, label: label,
                "column \(column) holds \(value.storageClassName), not \(T.self)")
        }
        return converted
    }
}

extension SQLiteValue {
    public var storageClassName: String {
        switch self {
        case .integer: return "an integer"
        case .real: return "a real"
        case .text: return "text"
        case .blob: return "a blob"
        case .null: return "NULL"
        }
    }
}
