import Foundation

/// The outcome of one conformance check, as clap-validator reports them.
public struct ConformanceResult: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable {
        case passed, failed, crashed, skipped, warning
    }

    public var check: String
    public var status: Status
    public var message: String

    public init(check: String, status: Status, message: String) {
        self.check = check
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
