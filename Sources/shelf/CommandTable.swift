// Each area keeps its commands in a list of its own; `shelf --help` shows them in this order.
let publicationCommands: [Command] = [
    pluginsCommand, sniffCommand, infoCommand, manifestCommand, tocCommand, renderCommand, positionsCommand,
    searchCommand, resourceCommand, coverCommand
]
let commands: [Command] =
    publicationCommands + audioCommands + catalogCommands + notificationCommands
    + readingListCommands + bookshelfCommands + annotationCommands
    + [serveCommand, conformanceCommand, conformanceCheckCommand, generateCommand, completeCommand]
