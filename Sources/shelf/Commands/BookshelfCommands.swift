/// Bookshelf and reading commands (add, books, remove, read, bookmark, settings, share, sample); registered in main.swift.
let bookshelfCommands: [Command] = []
