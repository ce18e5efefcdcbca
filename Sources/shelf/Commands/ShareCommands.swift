import Foundation
import Glibc
import Host

/// Puts `text` on the desktop clipboard with wl-copy (Wayland) or xclip (X11). Nil when done, else why not.
func copyToClipboard(_ text: String, environment env: [String: String]) -> String? {
    var tools: [[String]] = []
    if env["WAYLAND_DISPLAY"] != nil { tools.append(["wl-copy"]) }
    if env["DISPLAY"] != nil {
        tools.append(["xclip", "-selection", "clipboard"]); tools.append(["xsel", "--clipboard", "--input"])
    }
    if tools.isEmpty { return "there is no desktop session here (neither WAYLAND_DISPLAY nor DISPLAY is set)" }
    let path = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    for tool in tools {
        guard
            let found = path.map({ $0 + "/" + tool[0] }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { continue }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: found)
        process.arguments = Array(tool.dropFirst())
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { continue }
        input.fileHandleForWriting.write(Data(text.utf8))
        // A pipe that cannot be closed ends with the tool; its exit status below says whether it took the text.
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationStatus == 0 { return nil }
    }
    return "no clipboard tool worked (install wl-clipboard on Wayland, or xclip on X11)"
}

let shareCommand = Command(
    name: "share", summary: "a quotable passage with title, author and a link",
    usage: "shelf share BOOK [--page N | --locator JSON] [--copy] [--json]",
    details: """
        Prints a passage from the page you are on (or page N, or the place a Readium Locator names, starting at
        its quote) in quotation marks, with the title, the author, the chapter and page, and — for a book from a
        library catalog — the catalog's link for it with the locator. --copy also puts it on the desktop's
        clipboard (wl-copy or xclip); without one the passage is still printed and shelf exits 69.
        \(bookArgumentHelp) --json: {"book", "passage", "page", "pages", "chapter"?, "locator", "link"?, "text", "copied", "said"?}.
        """,
    valueOptions: ["--page", "--locator"],
    flagOptions: ["--copy"],
    positionals: 1...1
) { args, context in
    guard args.value("--page") == nil || args.value("--locator") == nil else {
        throw CommandUsage.pageAndLocator.error
    }
    let bookshelf = try openBookshelf(context)
    let book = try bookshelf.find(args.positionals[0])
    var locator: Locator?
    if let json = args.value("--locator") {
        do { locator = try Locator.parse(json) } catch {
            throw CommandUsage.notALocator.error
        }
    }
    let shared = try BookReader(bookshelf: bookshelf).share(
        book, page: try args.int("--page", in: 1...Int(Int32.max)), locator: locator)
    var problem: String?
    if args.has("--copy") { problem = copyToClipboard(shared.text, environment: context.shelf.environment) }
    if context.json {
        Output.json(ShareJSON(book: book, shared: shared, copied: args.has("--copy") && problem == nil))
    } else {
        Output.line(shared.text)
        if args.has("--copy") && problem == nil { Output.line(PassageCopied(shared).words(for: .terminal).line) }
    }
    if let problem {
        Output.error("not copied: \(problem)")
        return ShelfError.Kind.unavailable.rawValue
    }
    return 0
}

let sampleCommand = Command(
    name: "sample", summary: "read a catalog title's free sample",
    usage: "shelf sample ID [--account NAME] [--width N] [--json]",
    details: """
        Downloads the sample or preview the catalog offers for title ID (as `shelf browse` and `shelf catalog-search`
        show it), puts it on the shelf marked as a sample, and opens it as `shelf read` does; later `shelf read`
        continues it. --json prints the page as `shelf read --json` does, with "sample": true in "book".
        """,
    valueOptions: ["--account", "--width"],
    positionals: 1...1
) { args, context in
    let call = try CirculationCall(args, context)
    let bookshelf = try openBookshelf(context)
    let book = try call.library.addSample(call.entry, account: call.circulation.account, to: bookshelf)
    printPage(
        try BookReader(bookshelf: bookshelf).read(book, move: .resume, width: try readingWidth(args, context)),
        json: context.json)
    return 0
}
