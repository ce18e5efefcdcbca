import Foundation

/// Reads the names of the symbols a 64-bit little-endian ELF shared library exports (defined,
/// global or weak, in .dynsym), without loading it. Bounded against a hostile file: every
/// offset is checked before use.
public enum ELFExports {
    public static func names(path: String) -> [String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count > 64, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]), bytes[4] == 2, bytes[5] == 1 else {
            return nil
        }

        func int(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= 8, offset + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for i in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }

        guard let sectionTable = int(0x28, 8), let entrySize = int(0x3A, 2), let count = int(0x3C, 2),
            entrySize >= 64, count < 4096
        else { return nil }
        struct Section { let type, offset, size, link, entrySize: Int }
        var sections: [Section] = []
        for i in 0..<count {
            let base = sectionTable + i * entrySize
            guard let type = int(base + 4, 4), let offset = int(base + 0x18, 8), let size = int(base + 0x20, 8),
                let link = int(base + 0x28, 4), let es = int(base + 0x38, 8)
            else { return nil }
            sections.append(Section(type: type, offset: offset, size: size, link: link, entrySize: es))
        }
        let dynsymType = 11
        guard let dynsym = sections.first(where: { $0.type == dynsymType }), dynsym.entrySize >= 24,
            dynsym.link < sections.count
        else { return [] }
        let strings = sections[dynsym.link]
        var names: [String] = []
        let symbolCount = min(dynsym.size / dynsym.entrySize, 1_000_000)
        for i in 1..<max(symbolCount, 1) {
            let base = dynsym.offset + i * dynsym.entrySize
            guard let nameOffset = int(base, 4), let info = int(base + 4, 1), let sectionIndex = int(base + 6, 2) else {
                break
            }
            let binding = info >> 4
            guard sectionIndex != 0, binding == 1 || binding == 2 else { continue }  // defined, GLOBAL or WEAK
            let start = strings.offset + nameOffset
            guard start >= 0, start < bytes.count, start < strings.offset + strings.size else { continue }
            var end = start
            while end < bytes.count, bytes[end] != 0, end - start < 4096 { end += 1 }
            names.append(String(decoding: bytes[start..<end], as: UTF8.self))
        }
        return names
    }
}
