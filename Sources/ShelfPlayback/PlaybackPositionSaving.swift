/// Where the engine keeps the listener's place as it plays. The engine only calls it; the library database that
/// holds the place belongs to the host above playback (its `PlaybackPositionStore`), so playback never knows it.
public protocol PlaybackPositionSaving: AnyObject {
    /// Keeps `global` (frames on `timeline`) as the place in `book`; the engine reports a failure as an event.
    func save(book: AudioBook, timeline: Timeline, at global: Int64) throws
}
