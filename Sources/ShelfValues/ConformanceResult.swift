import Foundation

/// The outcome of one conformance check, as clap-validator reports them; a connector check has one for each service.
public struct ConformanceResult: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case passed, failed, crashed, skipped, warning
        /// The check does not concern this service (a connector service that reads a file makes no HTTP request to
        /// fail or cancel).
        case notApplicable = "not-applicable"
    }

    public var check: String
    /// The connector service this result is for; nil for a check of the whole plugin.
    public var service: String?
    public var status: Status
    public var message: String

    public init(check: String, service: String? = nil, status: Status, message: String) {
        self.check = check
        self.service = service
        self.status = status
        self.message = message
    }
}

/// `shelf conformance`'s report: each check's result and how many ended each way (made by the conformance runner).
public struct ConformanceReport: Codable, Sendable {
    public var plugin: String
    public var samples: [String]
    public var results: [ConformanceResult]
    public var summary: [String: Int]

    package init(plugin: String, samples: [String], results: [ConformanceResult], summary: [String: Int]) {
        self.plugin = plugin
        self.samples = samples
        self.results = results
        self.summary = summary
    }

    public var passed: Bool { !results.contains { $0.status == .failed || $0.status == .crashed } }
}
