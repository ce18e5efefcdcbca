import Foundation
import TestSupport

/// /control/audiobook?id=ID[&parts=3][&seconds=20][&chunk=2048][&interval=0.5]: the audiobook title ID is fulfilled
/// with a real audiobook (FakeAudiobook: MP3 parts made now by ffmpeg), its parts after the first sent `chunk` bytes
/// every `interval` seconds. Answers 500 with the reason when the parts cannot be made.
func installAudiobookControl(_ library: FakeLibrary) {
    library.server.route("POST", "/control/audiobook") { request in
        guard let id = request.queryItems["id"] else { return .status(400) }
        let number = { (name: String, fallback: Double) in request.queryItems[name].flatMap(Double.init) ?? fallback }
        do {
            let book = try FakeAudiobook.make(
                title: request.queryItems["title"] ?? "A Fake Audiobook", count: Int(number("parts", 3)),
                seconds: number("seconds", 20), chunk: Int(number("chunk", 2048)), interval: number("interval", 0.5))
            library.serveAudiobook(book, for: id)
            return .text("ok")
        } catch {
            return .text("\(error)", status: 500)
        }
    }
}
