import ConnectorShapes

/// A reading-list entry's ISBN as front ends and the library match it: a value computed from the entry alone.
extension ReadingListEntry {
    /// The ISBN-13 (an ISBN-10 converted), the key that matches across services and catalogs.
    public var isbn: String? { isbn13 ?? isbn10.flatMap(ISBN.thirteen) }
}

/// ISBN arithmetic: ISBN-10 → ISBN-13 with the 978 prefix and a fresh check digit.
public enum ISBN {
    public static func normalise(_ raw: String) -> String? {
        let digits = raw.uppercased().filter { $0.isASCII && ($0.isNumber || $0 == "X") }
        if digits.count == 13, !digits.contains("X") { return digits }
        if digits.count == 10 { return thirteen(digits) }
        return nil
    }

    public static func thirteen(_ ten: String) -> String? {
        guard ten.count == 10 else { return nil }
        let body = "978" + ten.prefix(9)
        guard body.allSatisfy(\.isNumber) else { return nil }
        let sum = body.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 1 : 3) }
        return body + String((10 - sum % 10) % 10)
    }
}
