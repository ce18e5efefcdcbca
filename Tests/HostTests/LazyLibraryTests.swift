import CLazyLibrary
import Foundation
import XCTest

/// The one loader of libraries shelf opens on first use (libcurl, libzip, libsecret, libdbus, libmicrohttpd): it
/// tries a library's sonames in order, and says what is missing and which Debian package brings it. Tried on
/// zlib, which every Debian system has, under names that exist and names that do not.
final class LazyLibraryTests: XCTestCase {
    /// Loads a table of one function, `symbol`, from the first of `sonames` that opens; the failure sentence, or
    /// nil and the function's address.
    func load(_ sonames: [String], _ symbol: String) -> (failure: String?, address: UnsafeMutableRawPointer?) {
        precondition(sonames.count <= Int(SHELF_LAZY_MAX_SONAMES))
        let names = sonames.map { UnsafePointer(strdup($0)!) }
        let symbolName = strdup(symbol)!
        let texts = (["zlib", "zlib 1.2 or newer", "zlib1g"] as [String]).map { UnsafePointer(strdup($0)!) }
        let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        let symbols = UnsafeMutablePointer<shelf_lazy_symbol>.allocate(capacity: 1)
        symbols.initialize(to: shelf_lazy_symbol(slot: slot, name: symbolName))
        // Zeroed, as a C static is: on glibc an all-zero mutex is PTHREAD_MUTEX_INITIALIZER.
        let library = UnsafeMutablePointer<shelf_lazy_library>.allocate(capacity: 1)
        library.initialize(to: shelf_lazy_library())
        defer {
            (names + texts).forEach { free(UnsafeMutableRawPointer(mutating: $0)) }
            free(symbolName)
            slot.deallocate()
            symbols.deallocate()
            library.deallocate()
        }
        withUnsafeMutableBytes(of: &library.pointee.sonames) { raw in
            for (i, name) in names.enumerated() {
                raw.storeBytes(
                    of: name, toByteOffset: i * MemoryLayout<UnsafePointer<CChar>?>.stride,
                    as: UnsafePointer<CChar>?.self)
            }
        }
        library.pointee.what = texts[0]
        library.pointee.needs = texts[1]
        library.pointee.package = texts[2]
        library.pointee.symbols = UnsafePointer(symbols)
        library.pointee.symbol_count = 1
        let failure = shelf_lazy_load(library).map { String(cString: $0) }
        XCTAssertEqual(shelf_lazy_load(library).map { String(cString: $0) }, failure, "a second call says the same")
        return (failure, slot.pointee)
    }

    /// A first soname that is not installed (libcurl's OpenSSL build on a GnuTLS system, libzip 4 on trixie) falls
    /// through to the next.
    func testTheFirstSonameThatOpensIsUsed() {
        let (failure, address) = load(["libshelf-absent.so.0", "libz.so.1"], "zlibVersion")
        XCTAssertNil(failure)
        XCTAssertNotNil(address)
    }

    func testNoSonameOpeningSaysWhatToInstall() {
        let (failure, address) = load(["libshelf-absent.so.0", "libshelf-absent.so.1"], "zlibVersion")
        XCTAssertNil(address)
        XCTAssertEqual(
            failure,
            "zlib could not be opened (libshelf-absent.so.1: cannot open shared object file: No such file or directory): install it with apt-get install zlib1g"
        )
    }

    func testAMissingFunctionNamesTheLibraryThatOpened() {
        let (failure, _) = load(["libshelf-absent.so.0", "libz.so.1"], "shelf_no_such_function")
        XCTAssertEqual(
            failure,
            "the libz.so.1 found has no shelf_no_such_function: install zlib 1.2 or newer with apt-get install zlib1g")
    }
}
