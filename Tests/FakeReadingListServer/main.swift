import Foundation
import ReadingListFakes
import TestSupport

// shelf-fake-reading-lists: the Swift tests' fake Google Books (Books API v1 and OAuth 2.0 for installed apps, PKCE
// checked) and fake Goodreads (the legacy API with OAuth 1.0a, every signature checked; it answers with the
// corpus's documents, so it runs only where ../shared/corpus is) as a process, for the browser tests. It prints one
// JSON line with their addresses, then serves until its standard input closes.

let google = try FakeGoogleBooks(corpus: nil)
// Titles the fake library has (by title and author, as a patron's list names them), and one it has not.
let listed: [(id: String, title: String, author: String)] = [
    ("lib-waiting", "Waiting Game", "Ben Moss"), ("lib-open", "The Open Road", "Ada Lane"),
    ("lib-atlas", "Northern Lights Atlas", "Jon Frost"), ("not-held", "A Book No Library Has", "Nobody Known")
]
for v in listed {
    google.volumes[v.id] = [
        "kind": "books#volume", "id": v.id, "volumeInfo": ["title": v.title, "authors": [v.author]]
    ]
}
google.put(["lib-waiting", "lib-open", "not-held"], on: 2)
google.put(["lib-atlas"], on: 4)
// What the test checks of the sign-in: the code_verifier was checked against the S256 challenge.
google.server.route("GET", "/control/counts") { _ in
    FakeGoogleBooks.json(["verifiedPKCE": google.verifiedPKCE, "issued": google.issued])
}

// The next sign-in is declined on Google's page.
google.server.route("POST", "/control/decline") { _ in
    google.lock.withLock { google.declineNext = true }
    return .text("ok")
}

var card: [String: Any] = [
    "google": [
        "base": google.base, "authURL": google.authURL, "tokenURL": google.tokenURL,
        "counts": google.server.url("/control/counts").absoluteString,
        "decline": google.server.url("/control/decline").absoluteString
    ]
]
var goodreads: FakeGoodreads?
if let corpus = Corpus.root {
    let fake = try FakeGoodreads(corpus: corpus)
    goodreads = fake
    card["goodreads"] = ["base": fake.base, "consumerKey": fake.consumerKey, "consumerSecret": fake.consumerSecret]
}
let line = try JSONSerialization.data(withJSONObject: card, options: [.sortedKeys])
FileHandle.standardOutput.write(line + Data("\n".utf8))

// Serves until the test that started it closes our standard input (or ends).
_ = FileHandle.standardInput.readDataToEndOfFile()
google.stop()
goodreads?.stop()
