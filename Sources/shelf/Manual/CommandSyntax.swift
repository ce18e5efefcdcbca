/// What a command's words are, read from its entry in the command table (its usage line and its option sets), so
/// that the man page and the shell completions never keep a copy of their own: a command or option added to the
/// table appears in both.
///
/// Usage lines follow one convention, which this reads: `shelf NAME [sub] PLACEHOLDER... [--option VALUE]`,
/// alternatives after ` | ` or on lines of their own; a VALUE of lowercase words joined by `|` lists the values the
/// option takes (`--format all|ebook|audiobook`), an upper-case one names what it takes (`FILE`, `BOOK`, `NAME`).
struct CommandSyntax {
    /// One way to call the command: an action word (`account add`), then its placeholders in order.
    struct Form: Equatable {
        var action: String?
        var placeholders: [String] = []
    }

    /// What completes a word: values from a fixed list, a path, or names asked from shelf itself.
    enum Completion: Equatable {
        case nothing
        case choices([String])
        case file
        case directory
        /// The titles of the books on the shelf (`shelf complete books`).
        case book
        /// The names of the patron's library accounts (`shelf complete accounts`).
        case account
    }

    let command: Command
    let forms: [Form]
    /// Each value option with the placeholder its usage gives it (`--format` → `all|ebook|audiobook`).
    let valuePlaceholders: [String: String]

    init(_ command: Command) {
        self.command = command
        var forms: [Form] = []
        var placeholders: [String: String] = [:]
        for alternative in Self.alternatives(of: command.usage, name: command.name) {
            var form = Form()
            var words = alternative[...]
            while let word = words.first {
                words = words.dropFirst()
                let bare = Self.bare(word)
                if bare.hasPrefix("-") {
                    let option = bare.split(separator: "=").first.map(String.init) ?? bare
                    if command.valueOptions.contains(option), let value = words.first.map(Self.bare),
                        !value.hasPrefix("-")
                    {
                        placeholders[option] = placeholders[option] ?? value
                        words = words.dropFirst()
                    }
                    continue
                }
                // Inside brackets and after an option a word may be an optional positional (`[BOOK]`, `--open [FILE]`).
                if form.action == nil, form.placeholders.isEmpty, Self.isActionWord(bare) {
                    form.action = bare
                } else if !bare.isEmpty {
                    form.placeholders.append(bare)
                }
            }
            forms.append(form)
        }
        self.forms = forms
        self.valuePlaceholders = placeholders
    }

    /// Every option the command takes, `--json` and `--help` with them, sorted.
    var options: [String] {
        (command.valueOptions.union(command.flagOptions).union(["--json", "--help"])).sorted()
    }

    /// The action words, in the order the usage gives them (`add`, `list`, `remove`, `use`).
    var actions: [String] { forms.compactMap(\.action) }

    /// What completes the value of `option`.
    func completion(forOption option: String) -> Completion {
        if option == "--account" { return .account }
        guard let placeholder = valuePlaceholders[option] else { return .nothing }
        return Self.completion(forPlaceholder: placeholder)
    }

    /// What completes positional word number `index` (0-based, the action word included) when `action` is the first.
    func completion(forPositional index: Int, action: String?) -> Completion {
        let actions = self.actions
        var placeholders = forms.first?.placeholders ?? []
        var placeholderIndex = index
        if !actions.isEmpty {
            if index == 0 { return .choices(actions) }
            placeholders = forms.first { $0.action == action }?.placeholders ?? []
            placeholderIndex = index - 1
        }
        if placeholderIndex < placeholders.count {
            let placeholder = placeholders[placeholderIndex]
            // `shelf account remove NAME`: the one command whose NAME is an account's.
            if command.name == "account", placeholder == "NAME" { return .account }
            return Self.completion(forPlaceholder: placeholder)
        }
        if let last = placeholders.last, last.hasSuffix("...") { return Self.completion(forPlaceholder: last) }
        return .nothing
    }

    static func completion(forPlaceholder placeholder: String) -> Completion {
        let name = placeholder.hasSuffix("...") ? String(placeholder.dropLast(3)) : placeholder
        let parts = name.split(separator: "|").map(String.init)
        let choices = parts.filter { $0.first?.isLowercase == true }
        if !choices.isEmpty, choices.count == parts.count || parts.count > 1 { return .choices(choices) }
        for part in parts {
            switch part {
            case "BOOK": return .book
            case "ACCOUNT": return .account
            case "DIR": return .directory
            case "FILE", "PATH": return .file
            default:
                if part.hasPrefix("FILE.") || part.hasSuffix(".so") { return .file }
            }
        }
        return .nothing
    }

    /// The usage split into its alternatives, each a list of words without `shelf` and the command's name.
    static func alternatives(of usage: String, name: String) -> [[String]] {
        var result: [[String]] = []
        for line in usage.split(separator: "\n") {
            var current: [String] = []
            var depth = 0
            for word in line.split(separator: " ").map(String.init) {
                if word == "|" && depth == 0 {
                    result.append(current)
                    current = []
                    continue
                }
                depth += word.filter { $0 == "[" }.count - word.filter { $0 == "]" }.count
                current.append(word)
            }
            result.append(current)
        }
        return result.map { words in
            var words = words[...]
            if words.first == "shelf" { words = words.dropFirst() }
            if words.first == name { words = words.dropFirst() }
            return Array(words)
        }.filter { !$0.isEmpty || result.count == 1 }
    }

    /// A word without the brackets and repetition marks around it: `[--page` → `--page`, `N]...` → `N`, `FILE...`
    /// keeps its `...` (it takes any number).
    static func bare(_ word: String) -> String {
        var text = Substring(word)
        while let first = text.first, first == "[" || first == "(" { text = text.dropFirst() }
        while true {
            if text.hasSuffix("...") && text.dropLast(3).hasSuffix("]") { text = text.dropLast(3); continue }
            if let last = text.last, last == "]" || last == ")" { text = text.dropLast(); continue }
            return String(text)
        }
    }

    private static func isActionWord(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isLowercase && $0.isLetter }
    }
}
