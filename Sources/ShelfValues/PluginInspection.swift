import Foundation

/// `shelf plugins --inspect ID` (as gst-inspect does for GStreamer elements): everything the host read from a
/// plugin's descriptor, each capability it offers with its vtable's size and filled slots, and each service's
/// `describe` answer.
public struct PluginInspection: Encodable {
    public struct Capability: Encodable {
        public let id: String
        public let structSize: Int
        public let functions: Int

        package init(id: String, structSize: Int, functions: Int) {
            self.id = id
            self.structSize = structSize
            self.functions = functions
        }
    }

    public struct Service: Encodable {
        public let service: String
        public let capabilities: ConnectorDescription?
        public let error: String?

        package init(service: String, capabilities: ConnectorDescription?, error: String?) {
            self.service = service
            self.capabilities = capabilities
            self.error = error
        }
    }

    public let id, name, version: String
    public let license, vendor, url, description: String?
    public let path: String
    public let abi: String
    public let descriptorSize: Int
    public let concurrentHandles: Bool
    public let mediaTypes, fileExtensions: [String]
    public let capabilities: [Capability]
    public let services: [Service]
    /// Where it runs ("in-process", "confined", "unconfined") and why.
    public let runs: PluginRunPlace.Place
    public let runsBecause: String
    public var runsInWords: String { PluginRunPlace(place: runs, because: runsBecause).inWords }
    /// What a plugin built for another minor of ABI 1 lacks, or that it is newer than this shelf; nil when nothing.
    public let abiNote: String?

    package init(
        id: String, name: String, version: String, license: String?, vendor: String?, url: String?,
        description: String?, path: String, abi: String, descriptorSize: Int, concurrentHandles: Bool,
        mediaTypes: [String], fileExtensions: [String], capabilities: [Capability], services: [Service],
        runs: PluginRunPlace, abiNote: String? = nil
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.license = license
        self.vendor = vendor
        self.url = url
        self.description = description
        self.path = path
        self.abi = abi
        self.descriptorSize = descriptorSize
        self.concurrentHandles = concurrentHandles
        self.mediaTypes = mediaTypes
        self.fileExtensions = fileExtensions
        self.capabilities = capabilities
        self.services = services
        self.runs = runs.place
        runsBecause = runs.because
        self.abiNote = abiNote
    }
}
