import Host

/// A command line split into positionals, options with values, and flags, checked against
/// what the command accepts so that a typo is a usage error (64), not a silent default.
struct Arguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ words: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws {
        var i = 0
        var onlyPositionals = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = word
            var inline: String?
            if let eq = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            if valueOptions.contains(name) {
                guard let value = inline ?? (i < words.count ? words[i] : nil) else {
                    throw CommandUsage.needsValue(option: name).error
                }
                if inline == nil { i += 1 }
                values[name, default: []].append(value)
            } else if flagOptions.contains(name), inline == nil {
                flags.insert(name)
            } else {
                throw CommandUsage.unknownOption(name, global: false).error
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw CommandUsage.notAWholeNumber(option: name, range: range, given: text).error
        }
        return n
    }

    func choice(_ name: String, _ allowed: [String]) throws -> String? {
        guard let text = value(name) else { return nil }
        guard allowed.contains(text) else {
            throw CommandUsage.notOneOf(option: name, allowed: allowed, given: text).error
        }
        return text
    }
}
