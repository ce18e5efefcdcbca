import ShelfPlayback

// The playback subsystem's types a front end still names, under the host's names (Sources/ShelfPlayback: the
// engine, its sinks, chapters, the sleep timer). The values stay shared; the engine and the sinks are for the
// listening session to take over (docs/architecture.md, "What is still open").
public typealias PlaybackEngine = ShelfPlayback.PlaybackEngine
public typealias PlaybackState = ShelfPlayback.PlaybackState
public typealias PlaybackEvent = ShelfPlayback.PlaybackEvent
public typealias PlaybackTime = ShelfPlayback.PlaybackTime
public typealias SleepTimer = ShelfPlayback.SleepTimer
public typealias Chapter = ShelfPlayback.Chapter
public typealias Chapters = ShelfPlayback.Chapters
public typealias ChapterSpans = ShelfPlayback.ChapterSpans
public typealias AudioSink = ShelfPlayback.AudioSink
public typealias DeviceSink = ShelfPlayback.DeviceSink
public typealias WAVFileSink = ShelfPlayback.WAVFileSink
public typealias RawPCMSink = ShelfPlayback.RawPCMSink
public typealias NullSink = ShelfPlayback.NullSink
