import ShelfPlayback

// The playback subsystem's values a front end names, under the host's names (Sources/ShelfPlayback: the engine, its
// sinks, chapters, the sleep timer). The engine and the sinks are behind the listening session (`ListeningSession`,
// `ListeningOptions`, `AudioOutput`), a table of contents' spans behind `BookFile`.
public typealias PlaybackState = ShelfPlayback.PlaybackState
public typealias PlaybackEvent = ShelfPlayback.PlaybackEvent
public typealias PlaybackTime = ShelfPlayback.PlaybackTime
public typealias SleepTimer = ShelfPlayback.SleepTimer
public typealias Chapter = ShelfPlayback.Chapter
