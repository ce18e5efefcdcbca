import Foundation
import Host
import TestSupport
import XCTest

extension Shelf {
    /// The loopback library as an account named "fake", signed in with its patron, its catalog read (circulation
    /// works on titles shelf has seen): what a test of borrowing, holds or sync starts from.
    func signedInCirculation(at fake: FakeLibrary) throws -> (library: LibrarySession, circulation: Circulation) {
        let library = try self.library()
        let account = try library.addAccount(fake.root, name: "fake").account
        let signIn = SignIn(library: library, account: account)
        try signIn.signIn(flow: try XCTUnwrap(try signIn.flow()), username: fake.username, password: fake.password)
        _ = try library.browse(nil, account: "fake", format: nil, refinement: CatalogRefinement())
        return (library, try library.circulation(account: "fake"))
    }
}
