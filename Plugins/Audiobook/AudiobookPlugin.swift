import Foundation
import PluginKit

/// Audiobook manifests and packages. This release recognises them so that the host routes them
/// here; opening and decoding arrive with the audiobook issue, and until then `open` says so.
final class AudiobookPlugin: FormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.audiobook",
        name: "Audiobooks",
        version: "0.1.0",
        description: "Readium audiobook manifests, .audiobook packages, W3C audiobooks, M4B and MP3.",
        mediaTypes: ["application/audiobook+json", "application/audiobook+zip", "application/lpf+zip",
                     "audio/mp4", "audio/mpeg"],
        fileExtensions: ["audiobook", "lpf", "m4b", "m4a", "mp3"],
        capabilities: [.format]
    )

    init(host: PluginHost) throws {}

    func probe(_ input: PluginInput) -> Int32 {
        guard let type = input.mediaType, Self.info.mediaTypes.contains(type) else { return 0 }
        return 50
    }

    func open(_ input: PluginInput) throws -> PublicationHandle {
        throw PluginFailure.unsupported(
            "audiobooks are recognised but cannot be played by this version of shelf yet")
    }
}
