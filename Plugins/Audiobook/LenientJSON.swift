import Foundation

/// Reading manifests as they are in the wild: numbers as strings, titles as strings, arrays,
/// language maps or W3C localisable objects, single objects where arrays belong, nulls anywhere.
enum LenientJSON {
    static func object(_ value: Any?) -> [String: Any]? { value as? [String: Any] }

    /// An array, a single value as a one-item array, nil for null or absent.
    static func list(_ value: Any?) -> [Any] {
        switch value {
        case let a as [Any]: return a
        case nil, is NSNull: return []
        case let v?: return [v]
        }
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let n as NSNumber:
            // JSON booleans arrive as NSNumber too; a boolean is not a number here.
            if isBool(n) { return nil }
            let d = n.doubleValue
            return d.isFinite ? d : nil
        case let s as String:
            let t = s.trimmingCharacters(in: .whitespaces)
            if let d = Double(t), d.isFinite { return d }
            return iso8601Duration(t)
        default: return nil
        }
    }

    /// "PT452S", "PT1H2M3.5S", "P1DT2H": seconds, or nil.
    static func iso8601Duration(_ text: String) -> Double? {
        var s = Substring(text.uppercased())
        guard s.first == "P" else { return nil }
        s = s.dropFirst()
        var total = 0.0
        var inTime = false
        var digits = ""
        var sawAny = false
        for ch in s {
            if ch == "T" { inTime = true; continue }
            if ch.isNumber || ch == "." || ch == "," { digits.append(ch == "," ? "." : ch); continue }
            guard let value = Double(digits) else { return nil }
            digits = ""
            sawAny = true
            switch (ch, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil  // years and months have no fixed length
            }
        }
        return sawAny && digits.isEmpty && total.isFinite ? total : nil
    }

    /// A human string from any of the shapes a title or name takes.
    static func text(_ value: Any?) -> String? {
        switch value {
        case let s as String:
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        case let n as NSNumber where !isBool(n):
            return n.stringValue
        case let a as [Any]:
            return a.lazy.compactMap { text($0) }.first
        case let o as [String: Any]:
            if let v = text(o["value"]) { return v }
            if let v = text(o["name"]) { return v }
            if let v = text(o["@value"]) { return v }
            // A language map: a stable choice, English first.
            if let v = text(o["en"]) { return v }
            return o.keys.sorted().lazy.compactMap { text(o[$0]) }.first
        default: return nil
        }
    }

    /// Every name in a contributor field: "A", ["A", {"name": "B"}], {"name": ...}.
    static func names(_ value: Any?) -> [String] {
        switch value {
        case let s as String: return text(s).map { [$0] } ?? []
        case let a as [Any]: return a.flatMap { names($0) }
        case let o as [String: Any]: return text(o["name"] ?? o["value"]).map { [$0] } ?? []
        default: return []
        }
    }

    /// JSON true/false arrive as NSNumber; corelibs marks them with the C type "c".
    static func isBool(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    static func string(_ value: Any?) -> String? {
        guard let s = value as? String else { return nil }
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }
}
