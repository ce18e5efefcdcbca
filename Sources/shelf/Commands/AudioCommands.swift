/// Audiobook commands (play, listen, fetch, downloads); registered in main.swift.
let audioCommands: [Command] = []
