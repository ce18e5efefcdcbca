import Host

/// shelf(1) and shelf-plugin(7), written from the command table (`shelf generate shelf.1|shelf-plugin.7`): each
/// command's usage, summary and details as `shelf help COMMAND` gives them, and the exit codes, environment and
/// files from ManualFacts, so that no text is written twice.
enum ManPages {
    static let names = ["shelf.1", "shelf-plugin.7"]

    static func page(_ name: String, commands: [Command]) -> String? {
        switch name {
        case "shelf.1": return shelf(commands)
        case "shelf-plugin.7": return plugin(commands)
        default: return nil
        }
    }

    private static func heading(_ title: String, section: Int, manual: String) -> String {
        ".TH \(title) \(section) \"\" \"shelf \(Shelf.version)\" \"\(manual)\"\n"
    }

    // MARK: shelf(1)

    private static func shelf(_ commands: [Command]) -> String {
        var out = heading("SHELF", section: 1, manual: "User Commands")
        out += ".SH NAME\nshelf \\- \(Roff.text(ManualFacts.purpose))\n"
        out += ".SH SYNOPSIS\n" + Roff.synopsis(ManualFacts.synopsis) + "\n"
        out += ".SH DESCRIPTION\n" + paragraphs(ManualFacts.description)
        out +=
            ".SH OPTIONS\nThese come before the command; every command also takes \\fB\\-\\-json\\fR and \\fB\\-\\-help\\fR.\n"
        for option in ManualFacts.globalOptions {
            out += ".TP\n" + Roff.synopsis(option.syntax) + "\n" + Roff.text(option.meaning) + "\n"
        }
        out += ".SH COMMANDS\n"
        for command in commands where !command.hidden {
            out += ".SS \(Roff.bold(command.name))\n"
            // One alternative a line (`shelf account add URL | list | remove NAME`), neither hyphenated nor spread.
            out += ".nh\n.ad l\n"
            let lines = command.usage.split(separator: "\n").map { $0.droppingLeading(" ") }
            for (index, line) in lines.enumerated() {
                let alternatives = splitAlternatives(String(line))
                for (number, alternative) in alternatives.enumerated() {
                    out += (index == 0 && number == 0 ? "" : ".br\n") + Roff.synopsis(alternative) + "\n"
                }
            }
            out += ".ad\n.hy\n"
            out +=
                ".PP\n" + Roff.text(command.summary.prefix(1).uppercased() + command.summary.dropFirst() + ".") + "\n"
            out += body(command.details)
        }
        out += ".SH EXIT STATUS\n"
        for status in ExitStatus.all {
            out += ".TP\n.B \(status.code)\n" + Roff.text(status.meaning) + "\n"
        }
        out += ".SH ENVIRONMENT\n"
        for variable in ManualFacts.environment {
            out += ".TP\n" + Roff.bold(variable.name) + "\n" + Roff.text(variable.meaning) + "\n"
        }
        out += ".SH FILES\n"
        for file in ManualFacts.files {
            out += ".TP\n" + Roff.bold(file.path) + "\n" + Roff.text(file.meaning) + "\n"
        }
        out += ".SH SEE ALSO\n\\fBshelf\\-plugin\\fR(7), \\fBxdg\\-open\\fR(1), \\fBsystemd.timer\\fR(5)\n"
        return out
    }

    /// Splits `shelf account add URL [--name NAME] | list | remove NAME` at the bars outside brackets, each
    /// alternative starting with `shelf COMMAND`.
    private static func splitAlternatives(_ line: String) -> [String] {
        let words = line.split(separator: " ").map(String.init)
        guard words.count > 1, words[0] == "shelf" else { return [line] }
        let alternatives = CommandSyntax.alternatives(of: line, name: words[1])
        guard alternatives.count > 1 else { return [line] }
        return alternatives.map { (["shelf", words[1]] + $0).joined(separator: " ") }
    }

    /// A command's details as roff: paragraphs, and the `term  text` lists some commands use (`account`,
    /// `lists`) as tagged paragraphs. A list's text column is where its continuation lines are indented to.
    static func body(_ details: String) -> String {
        let lines = details.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let column = lines.filter { $0.hasPrefix("    ") }.map { $0.prefix { $0 == " " }.count }.min()
        var out = ""
        var pending: [String] = []
        var term: String?
        func flush() {
            guard !pending.isEmpty else { return }
            out += term.map { ".TP\n" + Roff.synopsis($0) + "\n" } ?? ".PP\n"
            out += Roff.text(pending.joined(separator: " ")) + "\n"
            pending = []
        }
        for line in lines {
            let trimmed = line.droppingLeading(" ")
            if trimmed.isEmpty { flush(); term = nil; continue }
            if column != nil, line.hasPrefix(" ") { pending.append(String(trimmed)); continue }
            if let column, line.count > column {
                let head = line.prefix(column)
                let words = head.split(separator: " ")
                if head.hasSuffix(" "), line.dropFirst(column).first != " ", (1...2).contains(words.count) {
                    flush()
                    term = words.joined(separator: " ")
                    pending.append(String(line.dropFirst(column)))
                    continue
                }
            }
            if term != nil { flush(); term = nil }
            pending.append(String(trimmed))
        }
        flush()
        return out
    }

    private static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n").map {
            ".PP\n" + Roff.text($0.split(separator: "\n").joined(separator: " ")) + "\n"
        }.joined()
    }

    // MARK: shelf-plugin(7)

    private static func plugin(_ commands: [Command]) -> String {
        var out = heading("SHELF-PLUGIN", section: 7, manual: "shelf")
        out += ".SH NAME\nshelf\\-plugin \\- writing format and reading\\-list plugins for shelf\n"
        out += ".SH SYNOPSIS\n.nf\n.B #include <shelf/plugin.h>\n.B #include <shelf/helper.h>\n.PP\n"
        out +=
            "\\fBcc \\-std=c99 \\-shared \\-fPIC \\-fvisibility=hidden\\fR \\fIplugin.c\\fR \\fB\\-o\\fR \\fIlibmy.so\\fR "
            + "\\fB$(pkg\\-config \\-\\-cflags \\-\\-libs shelf\\-plugin)\\fR\n.fi\n"
        for section in ManualFacts.pluginSections {
            out += ".SH \(section.title)\n" + paragraphs(section.text)
        }
        out += ".SH PLUGIN SEARCH PATH\nshelf loads the first plugin with a given id from these places, in order:\n"
        for (index, place) in ManualFacts.pluginSearchPath.enumerated() {
            out += ".IP \(index + 1). 4\n" + Roff.text(place) + "\n"
        }
        for name in ["conformance", "plugins", "sniff"] {
            guard let command = commands.first(where: { $0.name == name }) else { continue }
            out += ".SH SHELF \(name.uppercased())\n"
            for line in command.usage.split(separator: "\n") {
                out += Roff.synopsis(String(line.droppingLeading(" "))) + "\n.br\n"
            }
            out += body(command.details)
        }
        out += ".SH SEE ALSO\n\\fBshelf\\fR(1), \\fBpkg\\-config\\fR(1), \\fBvalgrind\\fR(1)\n"
        return out
    }
}

private extension Substring {
    func droppingLeading(_ character: Character) -> Substring {
        var s = self
        while s.first == character { s = s.dropFirst() }
        return s
    }
}

private extension String {
    func droppingLeading(_ character: Character) -> Substring { Substring(self).droppingLeading(character) }
}
