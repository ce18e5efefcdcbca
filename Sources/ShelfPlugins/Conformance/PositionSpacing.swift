import Foundation
import Readium

/// format.h's rule for reflowable text: one position per started 1024 bytes of each reading-order resource.
/// The bytes are the resource's as stored: a plugin whose stored bytes are not the bytes `resource` gives
/// (an entry compressed in an archive) says how many there are in the link's properties.storedLength; for
/// any other the resource's own bytes count. Fixed-layout items have one position each.
enum PositionSpacing {
    static func check(
        _ s: ConformanceChecks.Subject, _ publication: RawPublication, _ manifest: Manifest, _ positions: [Locator]
    ) throws {
        if case .string(let layout)? = (manifest.metadata["presentation"]?.object)?["layout"], layout == "fixed" {
            return
        }
        var counts: [String: Int] = [:]
        for p in positions { counts[p.href, default: 0] += 1 }
        for link in manifest.readingOrder {
            let stored: Int
            if case .number(let length)? = link.properties?["storedLength"] {
                stored = Int(length)
            } else if link.type.map(isAudio) == true {
                continue
            } else {
                // A resource the plugin cannot give is another check's failure (resources); here it only has no size.
                guard
                    let bytes = try? publication.collect(
                        publication.name("resource", link.href), limit: OutputCollector.resourceLimit,
                        { h, out, err in
                            link.href.withCString { s.format.pointee.resource!(h, $0, out, err) }
                        })
                else { continue }
                stored = bytes.count
            }
            let expected = max(1, (stored + 1023) / 1024)
            let got = counts[link.href] ?? 0
            if got != expected {
                throw ConformanceChecks.CheckFailure(
                    "\(publication.name("positions")): \(link.href) has \(got) positions, but its \(stored) bytes make \(expected) "
                        + "(format.h: one position per started 1024 bytes of each reading-order resource"
                        + (link.properties?["storedLength"] == nil
                            ? ", counted in the bytes `resource` gives unless the link's properties.storedLength says otherwise)"
                            : ")"))
            }
        }
    }

    static func isAudio(_ type: String) -> Bool { type.hasPrefix("audio/") }
}
