// One time line over an audiobook's tracks: seconds in the book <-> (track, seconds in the track). The chapters
// on it are the host's (its listening session places the table of contents on the time line).

export class Timeline {
  // `tracks`: [{href, url, duration, title, available}]; `chapters`: [{title, start, duration, track, available}].
  constructor(tracks, chapters) {
    this.tracks = tracks;
    let start = 0;
    this.starts = tracks.map((t) => { const s = start; start += t.duration || 0; return s; });
    this.duration = start;
    this.chapters = chapters.map((chapter, index) => ({ ...chapter, index }));
  }

  locate(seconds) {
    const at = Math.max(0, Math.min(seconds, this.duration));
    let track = 0;
    for (let i = 0; i < this.tracks.length; i++) if (this.starts[i] <= at) track = i;
    return { track, offset: at - this.starts[track] };
  }

  chapterAt(seconds) {
    let found = this.chapters[0];
    for (const chapter of this.chapters) if (chapter.start <= seconds + 0.001) found = chapter;
    return found;
  }

  // A chapter can be chosen only when the part it plays from is there (not still downloading).
  available(chapter) { return chapter.available !== false && this.tracks[chapter.track]?.available !== false; }
}
