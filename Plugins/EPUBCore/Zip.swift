import Foundation
import PluginKit
import LibZip

public typealias ZipLimits = LibZip.ZipLimits
public typealias ZipEntry = LibZip.ZipEntry

/// A book's zip archive: the shared reader (`LibZip`), its failures as the plugin's.
///
/// Not thread-safe as a book: one publication is used by one thread at a time (the ABI's handle rule).
public final class ZipArchive {
    private let reader: ZipReader

    public init(path: String, limits: ZipLimits = .default) throws {
        do { reader = try ZipReader(path: path, limits: limits) } catch let e as ZipError { throw PluginFailure(e) }
    }

    public var limits: ZipLimits { reader.limits }
    public var entries: [ZipEntry] { reader.entries }
    public var warnings: [String] { reader.warnings }
    public var firstEntryName: String? { reader.firstEntryName }

    public static func unsafeReason(_ name: String) -> String? { ZipNames.unsafeReason(name) }

    public func entry(named name: String) -> ZipEntry? { reader.entry(named: name) }
    public func contains(_ name: String) -> Bool { reader.contains(name) }
    public func entry(caseInsensitive name: String) -> ZipEntry? { reader.entry(caseInsensitive: name) }

    public func read(_ entry: ZipEntry, limit: UInt64? = nil) throws -> Data {
        do { return try reader.read(entry, limit: limit) } catch let e as ZipError { throw PluginFailure(e) }
    }

    public func read(_ name: String) throws -> Data {
        guard let e = entry(named: name) else {
            throw PluginFailure.notFound("the book has no entry '\(name)'", at: name)
        }
        return try read(e)
    }
}
