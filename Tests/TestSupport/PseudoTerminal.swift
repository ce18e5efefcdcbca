import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A new pseudo-terminal: the master end the test reads and writes, and the terminal end a program is given.
public enum PseudoTerminal {
    public static func open() throws -> (master: Int32, terminal: Int32) {
        // glibc declares these only for X/Open builds, which Swift's Glibc module is not: look them up instead.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias PTName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let handle = dlopen(nil, RTLD_NOW), let openSymbol = dlsym(handle, "posix_openpt"),
            let grantSymbol = dlsym(handle, "grantpt"), let unlockSymbol = dlsym(handle, "unlockpt"),
            let nameSymbol = dlsym(handle, "ptsname")
        else {
            throw NSError(
                domain: "PseudoTerminal", code: 1, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal functions"]
            )
        }
        let openpt = unsafeBitCast(openSymbol, to: OpenPT.self)
        let grantpt = unsafeBitCast(grantSymbol, to: OpenPT.self)
        let unlockpt = unsafeBitCast(unlockSymbol, to: OpenPT.self)
        let ptsname = unsafeBitCast(nameSymbol, to: PTName.self)
        let master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            if master >= 0 { close(master) }
            throw NSError(
                domain: "PseudoTerminal", code: 1, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal"])
        }
        let path = String(cString: name)
        let terminal = Glibc.open(path, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(master)
            throw NSError(
                domain: "PseudoTerminal", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot open \(path)"])
        }
        return (master, terminal)
    }
}
