import Foundation
import ShelfValues

/// How a file is sniffed (the value itself is `ShelfValues.SniffReport`): the plugins that claim its media type or
/// extension are asked first, and only when none of them is confident does every other format plugin get asked.
extension SniffReport {
    public init(path: String, router: FormatRouter) throws {
        let sniffed = try PublicationInput(path: path)
        let input = sniffed.refined(by: router.registry)
        let claimants = router.registry.claimants(mediaType: input.mediaType, fileExtension: input.fileExtension)
        var probes: [Probe] = []
        for plugin in router.registry.formatPlugins {
            let claims = claimants.contains { $0 === plugin }
            var refusals: [FormatRouter.ProbeRefusal] = []
            let confidence = router.probe(plugin, input, refusals: &refusals)
            probes.append(
                Probe(
                    plugin: plugin.descriptor.id, claims: claims, confidence: confidence,
                    error: refusals.first.map { "\($0.error)" }))
        }
        probes.sort { ($0.claims ? 1 : 0, $0.confidence) > ($1.claims ? 1 : 0, $1.confidence) }
        // The report lists every probe above; no plugin choosing the file is shown as none, which is the answer.
        let opensWith = try? router.choose(for: input).plugin.descriptor.id
        self.init(
            file: path, sniffedMediaType: sniffed.mediaType, mediaType: input.mediaType,
            fileExtension: input.fileExtension, probes: probes, opensWith: opensWith)
    }
}
