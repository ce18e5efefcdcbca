/// Notification, status and watcher commands; registered in main.swift.
let notificationCommands: [Command] = []
