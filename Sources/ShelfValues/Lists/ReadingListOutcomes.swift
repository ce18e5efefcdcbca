import Foundation
import ConnectorShapes

// What the reading lists' calls answer (`ReadingLists.ConnectOutcome`, `.ServiceSettings`, `.PullOutcome`,
// `.FinishedOutcome`, `.PushReport`): made by the library's reading lists, shown by the front ends.

/// A service just connected.
public struct ReadingListConnectOutcome: Sendable {
    public var service: String
    public var pluginID: String
    public var description: ConnectorDescription
    public var authorized: Bool

    public init(service: String, pluginID: String, description: ConnectorDescription, authorized: Bool) {
        self.service = service
        self.pluginID = pluginID
        self.description = description
        self.authorized = authorized
    }
}

/// What a service can do and which settings it takes, with what is stored.
public struct ReadingListServiceSettings: Sendable {
    public var service: String
    public var pluginID: String
    public var description: ConnectorDescription
    /// The settings stored by the last connect; nil when the service is not connected.
    public var stored: [String: String]?

    public init(service: String, pluginID: String, description: ConnectorDescription, stored: [String: String]?) {
        self.service = service
        self.pluginID = pluginID
        self.description = description
        self.stored = stored
    }
}

/// One service's pull.
public struct ReadingListPullOutcome: Sendable {
    public var service: String
    public var entries: Int
    public var shelves: [ReadingListShelf]
    public var error: String?
    public var newWishes: Int
    /// Rows the service sent that were not kept: those without a title (a book is named by its title).
    public var skippedWithoutTitle: Int

    public init(
        service: String, entries: Int, shelves: [ReadingListShelf], error: String?, newWishes: Int,
        skippedWithoutTitle: Int = 0
    ) {
        self.service = service
        self.entries = entries
        self.shelves = shelves
        self.error = error
        self.newWishes = newWishes
        self.skippedWithoutTitle = skippedWithoutTitle
    }
}

/// A book marked read: what is recorded, and the services it is queued for.
public struct ReadingListFinishedOutcome: Sendable {
    public var entry: ReadingListEntry
    public var queued: [String]
    public var alreadyQueued: [String]

    public init(entry: ReadingListEntry, queued: [String], alreadyQueued: [String]) {
        self.entry = entry
        self.queued = queued
        self.alreadyQueued = alreadyQueued
    }
}

/// One finished book pushed to one service.
public struct ReadingListPushReport: Sendable {
    public var service: String
    public var title: String
    public var shelf: String
    public var outcome: String
    public var message: String?
    public var file: String?
    /// Where the patron uploads `file` (the connector's "uploadURL"), or nil when it does not say.
    public var uploadURL: String?
    /// The service's name for people.
    public var serviceName: String

    public init(
        service: String, title: String, shelf: String, outcome: String, message: String?, file: String?,
        uploadURL: String?, serviceName: String
    ) {
        self.service = service
        self.title = title
        self.shelf = shelf
        self.outcome = outcome
        self.message = message
        self.file = file
        self.uploadURL = uploadURL
        self.serviceName = serviceName
    }
}
