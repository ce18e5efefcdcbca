/// Library account, catalog and circulation commands; registered in main.swift.
let catalogCommands: [Command] = []
