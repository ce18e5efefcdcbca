import Foundation
import PluginKit

/// The clips of an EPUB 3 media overlay, as the manifest gives them in `readingOrder[i].alternate[].properties.clips`
/// (in play order). Each clip is an object:
///
/// - `text`: the fragment read (`href#id`, a manifest href);
/// - `audio`: the audio resource (a manifest href);
/// - `clipBegin`: seconds into the audio, always there (a missing or unreadable `clipBegin` is 0, as SMIL says);
/// - `clipEnd`: seconds into the audio; absent when the SMIL gives none (or none that reads): the clip then plays to
///   the end of the audio, which only the one who decodes the audio knows;
/// - `types`: the `epub:type` words of the `par` and of every `seq` (and the `body`) holding it, outermost first,
///   each once; absent when there are none;
/// - `structure`: when the clip lies inside an escapable structure (`escapableTypes`), an id of the OUTERMOST
///   escapable `seq` holding it: its `id`, or `SMILPATH#seq-N` when it has none or the id is taken by a structure
///   of another SMIL file (so that it is unique in the book). Escaping is jumping to the first later clip whose
///   `structure` differs.
///
/// Which clips are skippable (page numbers, notes…) is for the player to decide from `types` (the patron chooses
/// whether to skip them); escapability is decided here because it needs the nesting the manifest flattens.
extension EPUBBook {
    /// The Media Overlays 3.3 escapable structures (§ Escapability, with the vocabulary's names for them): a patron
    /// may leave one and go on after it. `glossary` is in Readium's list too (the smoke-test book escapes glossaries).
    public static let escapableTypes: Set<String> = [
        "table", "table-row", "table-cell", "list", "list-item", "figure", "aside", "glossary"
    ]

    /// Warnings a SMIL file gives, at most this many per file (a broken file would flood the log otherwise).
    static let maxOverlayWarnings = 5

    /// The clips of a SMIL media overlay: which text fragment is read by which audio span, in play order.
    public func mediaOverlayClips(smilPath: String) -> [JSONValue] {
        if let cached = smilClips[smilPath] { return cached }
        var warnings: [String] = []
        let clips = readClips(smilPath: smilPath, warnings: &warnings)
        if warnings.count > Self.maxOverlayWarnings {
            let more = warnings.count - Self.maxOverlayWarnings
            warnings = Array(warnings.prefix(Self.maxOverlayWarnings))
            warnings.append("the media overlay '\(smilPath)' has \(more) more problems of these kinds")
        }
        overlayWarnings += warnings
        smilClips[smilPath] = clips
        return clips
    }

    private func readClips(smilPath: String, warnings: inout [String]) -> [JSONValue] {
        // Media overlays are extra: a SMIL file that cannot be read gives no clips, and the text is still read.
        let data: Data
        do {
            data = try self.data(path: smilPath, limit: 8 << 20)
        } catch {
            warnings.append(
                "the media overlay '\(smilPath)' cannot be read (\(error)); the text it narrates has no narration")
            return []
        }
        guard let smil = SMILOutline.read(data, path: smilPath) else {
            warnings.append(
                "the media overlay '\(smilPath)' is not XML that can be read; the text it narrates has no narration")
            return []
        }
        if smil.truncated {
            warnings.append(
                "the media overlay '\(smilPath)' has more than \(SMILOutline.maxPars) phrases or "
                    + "\(SMILOutline.maxContainers) sequences; the narration stops there")
        }
        let dir = Paths.directory(of: smilPath)
        let structures = structureIDs(smil, smilPath: smilPath)
        var clips: [JSONValue] = []
        clips.reserveCapacity(smil.pars.count)
        for (number, par) in smil.pars.enumerated() {
            let chain = smil.chain(of: par)
            var clip: [String: JSONValue] = [:]
            let place = "phrase \(number + 1)\(par.id.map { " ('\($0)')" } ?? "") of '\(smilPath)'"
            if let src = par.textSrc, let href = Navigation.manifestHref(src, in: smilPath) {
                clip["text"] = .string(href)
            } else {
                warnings.append("\(place) names no text; it is left out")
                continue
            }
            if let audio = par.audio {
                if let src = audio.src, let p = Paths.resolve(src, against: dir) {
                    clip["audio"] = .string(Paths.href(forEntry: p))
                } else {
                    warnings.append("\(place) has an audio element without a source it can play")
                }
                var begin = 0.0
                if let text = audio.clipBegin {
                    if let b = SMILClock.seconds(text) {
                        begin = b
                    } else {
                        warnings.append(
                            "\(place) has a clipBegin that is no clock value ('\(text.prefix(40))'); 0 is used")
                    }
                }
                clip["clipBegin"] = .number(begin)
                if let text = audio.clipEnd {
                    if let end = SMILClock.seconds(text) {
                        if end < begin {
                            warnings.append("\(place) ends (\(end) s) before it begins (\(begin) s); it plays nothing")
                        }
                        clip["clipEnd"] = .number(max(begin, end))
                    } else {
                        warnings.append(
                            "\(place) has a clipEnd that is no clock value ('\(text.prefix(40))'); it plays to the end of its audio"
                        )
                    }
                }
            }
            var types: [String] = []
            var seen: Set<String> = []
            for words in chain.map({ smil.containers[$0].types }) + [par.types] {
                for word in words where seen.insert(word).inserted { types.append(word) }
            }
            if !types.isEmpty { clip["types"] = .array(types.map { .string($0) }) }
            if let outer = chain.first(where: { structures[$0] != nil }), let id = structures[outer] {
                clip["structure"] = .string(id)
            }
            clips.append(.object(clip))
        }
        return clips
    }

    /// The id of each escapable `seq` of a SMIL file (not the body, which holds the whole file): its own `id` unless
    /// a structure of another SMIL file has it, else one made of the file's href and the seq's number.
    private func structureIDs(_ smil: SMILOutline, smilPath: String) -> [Int: String] {
        var out: [Int: String] = [:]
        for (i, container) in smil.containers.enumerated()
        where !container.isBody && container.types.contains(where: Self.escapableTypes.contains) {
            if let id = container.id, structureOwners[id, default: smilPath] == smilPath {
                structureOwners[id] = smilPath
                out[i] = id
            } else {
                out[i] = Paths.href(forEntry: smilPath) + "#seq-\(i + 1)"
            }
        }
        return out
    }
}
