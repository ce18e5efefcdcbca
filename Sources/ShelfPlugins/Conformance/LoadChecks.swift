import ShelfValues
import Foundation
import PluginAPI

/// The checks that need only the loaded library: its descriptor, its exports, its vtables.
enum LoadChecks {
    typealias Subject = ConformanceChecks.Subject
    typealias CheckFailure = ConformanceChecks.CheckFailure

    static func descriptor(_ s: Subject) throws -> ConformanceResult.Status {
        let d = s.plugin.descriptor
        var status = ConformanceResult.Status.passed
        if d.structSize < MemoryLayout<shelf_plugin_descriptor>.size {
            s.note(
                "struct_size \(d.structSize) < \(MemoryLayout<shelf_plugin_descriptor>.size): built against an older header"
            )
        }
        if let note = ABIMinor.note(s.plugin) { s.note(note) }
        guard let license = d.license, !license.isEmpty else {
            throw CheckFailure("no license: set an SPDX expression")
        }
        if !d.id.contains(".") { s.note("id \(d.id) is not reverse-DNS"); status = .warning }
        if d.description == nil || d.vendor == nil { s.note("vendor or description missing"); status = .warning }
        let speaks = s.plugin.capabilities.contains(SHELF_EXT_SPEECH)
        if d.mediaTypes.isEmpty && d.services.isEmpty && !speaks {
            throw CheckFailure(
                "declares neither media types nor services, and offers no \(SHELF_EXT_SPEECH): it can do nothing")
        }
        if Set(d.mediaTypes).count != d.mediaTypes.count { throw CheckFailure("a media type is listed twice") }
        if speaks && d.mediaTypes.isEmpty && d.services.isEmpty { s.note("speech: \(SHELF_EXT_SPEECH)"); return status }
        s.note(
            d.mediaTypes.isEmpty
                ? "services: \(d.services.joined(separator: ", "))"
                : "media types: \(d.mediaTypes.joined(separator: ", "))")
        return status
    }

    static func exports(_ s: Subject) throws -> ConformanceResult.Status {
        guard let names = ELFExports.names(path: s.plugin.path) else {
            s.note("not a 64-bit ELF library: exports not checked")
            return .skipped
        }
        let others = names.filter {
            $0 != SHELF_PLUGIN_ENTRY_SYMBOL && !["_init", "_fini", "_edata", "_end", "__bss_start"].contains($0)
        }
        guard others.isEmpty else {
            s.note(
                "\(others.count) other symbols exported (e.g. \(others.prefix(3).joined(separator: ", "))): build with -fvisibility=hidden or a version script"
            )
            return .warning
        }
        return .passed
    }

    static func extensions(_ s: Subject) throws -> ConformanceResult.Status {
        guard let get = s.plugin.raw.pointee.get_extension else { throw CheckFailure("no get_extension") }
        if get("org.example.no-such-extension/1") != nil {
            throw CheckFailure("answers an unknown extension id with a vtable instead of NULL")
        }
        var offered: [String] = []
        for known in KnownExtension.all {
            guard let table = get(known.id) else { continue }
            guard get(known.id) == table else {
                throw CheckFailure("\(known.id): a second lookup returns another pointer")
            }
            let size = Int(table.load(as: UInt32.self))
            guard size >= known.size else { throw CheckFailure("\(known.id): struct_size \(size) < \(known.size)") }
            // Every function slot of a 1.0 vtable must be filled.
            let slots = (known.size - 8) / MemoryLayout<UnsafeRawPointer>.size
            for i in 0..<slots where table.load(fromByteOffset: 8 + i * 8, as: UInt.self) == 0 {
                throw CheckFailure("\(known.id): function slot \(i) is NULL")
            }
            offered.append(known.id)
        }
        if !s.plugin.descriptor.mediaTypes.isEmpty && !offered.contains(SHELF_EXT_FORMAT) {
            throw CheckFailure("declares media types but offers no \(SHELF_EXT_FORMAT)")
        }
        s.note(offered.isEmpty ? "no publication capabilities" : offered.joined(separator: ", "))
        return .passed
    }
}
