/// What Tab completes at each place of a shelf command line, worked out once from the command table for the three
/// shells' scripts (CompletionScripts), so that bash, zsh and fish offer the same words.
///
/// A place is named `COMMAND/ACTION/N`: the command, its first positional word (the action of `account`,
/// `bookmark`, `lists`…; empty before one is typed) and how many positional words come before the cursor. Each
/// script matches it against the rules' glob patterns, first match wins.
struct CompletionRules {
    struct Positional {
        let pattern: String
        let completion: CommandSyntax.Completion
    }

    struct CommandRules {
        let name: String
        let summary: String
        /// Every option, flags and value options alike.
        let options: [String]
        /// The options that take a value (the next word is theirs, not a positional).
        let valueOptions: [String]
        /// What completes each value option's value, where something does.
        let optionValues: [(option: String, completion: CommandSyntax.Completion)]
        let positionals: [Positional]
    }

    /// The options that come before any command.
    static let globalOptions = ["--plugin-path", "--help", "--version"]
    static let globalValueOptions = ["--plugin-path"]

    let commands: [CommandRules]

    init(_ table: [Command]) {
        commands = table.filter { !$0.hidden }.map { command in
            let syntax = CommandSyntax(command)
            var positionals: [Positional] = []
            let actions = syntax.actions
            if actions.isEmpty {
                let placeholders = syntax.forms.first?.placeholders ?? []
                for index in placeholders.indices {
                    positionals.append(
                        Positional(
                            pattern: "\(command.name)/*/\(index)",
                            completion: syntax.completion(forPositional: index, action: nil)))
                }
                if let last = placeholders.last, last.hasSuffix("...") {
                    positionals.append(
                        Positional(
                            pattern: "\(command.name)/*/*",
                            completion: CommandSyntax.completion(forPlaceholder: last)))
                }
            } else {
                positionals.append(Positional(pattern: "\(command.name)/*/0", completion: .choices(actions)))
                for form in syntax.forms {
                    guard let action = form.action else { continue }
                    for index in form.placeholders.indices {
                        positionals.append(
                            Positional(
                                pattern: "\(command.name)/\(action)/\(index + 1)",
                                completion: syntax.completion(forPositional: index + 1, action: action)))
                    }
                }
            }
            let valueOptions = command.valueOptions.sorted()
            return CommandRules(
                name: command.name, summary: command.summary, options: syntax.options, valueOptions: valueOptions,
                optionValues: valueOptions.map { ($0, syntax.completion(forOption: $0)) }.filter { $0.1 != .nothing },
                positionals: positionals.filter { $0.completion != .nothing })
        }
    }
}
