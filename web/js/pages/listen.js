// The player page (#/listen?book=ID): an audiobook from the shelf in the browser's own audio element. Never
// starts by itself; every control is labelled and says its state; the scrubber reads as time and moves by the
// skip step with the arrow keys; dragging it moves the place only when released, so the audio does not race
// through the passage under a screen reader. The player outlives this page (js/player/shared.js). A book whose
// parts are still arriving says how far they are (the host's words) under the controls, and playing into a part
// not here yet says that it waits for it.

import { h, replace } from "../dom.js";
import { notice } from "../notices.js";
import { sharedPlayer } from "../player/shared.js";
import { showMiniPlayer } from "../player/mini.js";
import { spoken, clock, speedWords } from "../player/words.js";

const SLEEP_CHOICES = [["", "Off"], ["5", "5 minutes"], ["15", "15 minutes"], ["30", "30 minutes"], ["45", "45 minutes"],
  ["60", "60 minutes"], ["chapter", "End of chapter"]];
const STEPS = [10, 15, 30, 60];

export default {
  title: "Player",
  section: "my-books",
  async render(main, params, app) {
    const player = sharedPlayer();
    showMiniPlayer();
    if (!params.book && !player.book) {
      replace(main, h("h1", {}, "Player"), h("p", {}, "Choose an audiobook in ", h("a", { href: "#/my-books" }, "My Books"), "."));
      return;
    }
    await player.open(params.book ?? player.book.id);
    const book = player.book;
    document.title = `${book.title} · shelf`;
    const timeline = player.timeline;

    const ui = {};
    // Play and Pause say what they did; a place that cannot play says why (the host's words).
    // Waiting for a part is said by the player's own event (`waiting`).
    ui.play = h("button", { type: "button", class: "play", id: "play", onclick: () => Promise.resolve(player.toggle())
      .then(() => player.waiting || app.announce(player.playing ? `Playing, ${spoken(player.position)}` : `Paused, ${spoken(player.position)}`))
      .catch((e) => app.announce(app.explain(e))) });
    ui.back = h("button", { type: "button", id: "skip-back", onclick: async () => app.announce(await player.skip(-player.step)) });
    ui.forward = h("button", { type: "button", id: "skip-forward", onclick: async () => app.announce(await player.skip(player.step)) });
    ui.scrubber = h("input", { type: "range", id: "scrubber", min: "0", max: String(Math.max(1, Math.round(timeline.duration))), step: "1" });
    ui.time = h("p", { class: "time", id: "time" });
    ui.left = h("p", { class: "left", id: "time-left" });
    ui.chapterNow = h("p", { class: "chapter-now", id: "chapter-now" });
    ui.speed = h("input", { type: "range", id: "speed", min: "0.5", max: "3", step: "0.05" });
    ui.speedOut = h("output", { for: "speed", id: "speed-value" });
    ui.volume = h("input", { type: "range", id: "volume", min: "0", max: "100", step: "5" });
    ui.volumeOut = h("output", { for: "volume" });
    ui.stepChoice = h("select", { id: "step" }, STEPS.map((s) => h("option", { value: String(s) }, `${s} seconds`)));
    ui.sleep = h("select", { id: "sleep", "aria-describedby": "sleep-left" }, SLEEP_CHOICES.map(([value, words]) => h("option", { value }, words)));
    ui.sleepLeft = h("p", { id: "sleep-left", class: "sleep-left" });
    ui.cancelSleep = h("button", { type: "button", id: "cancel-sleep", hidden: true }, "Cancel the sleep timer");
    ui.chapters = h("ol", { class: "chapters", id: "chapters" });
    ui.wait = h("p", { class: "player-wait", id: "player-wait", hidden: true });
    ui.arriving = h("p", { class: "arriving", id: "arriving", hidden: true });
    // A loan's download that stopped (shelf was closed meanwhile) is resumed from here.
    ui.resume = h("button", { type: "button", id: "resume-download", hidden: true, onclick: async () => {
      if (ui.resume.getAttribute("aria-disabled") === "true") return;
      ui.resume.setAttribute("aria-disabled", "true");
      try {
        const started = await app.api.post("/api/book/download", { ...player.arriving.resume, listen: true });
        app.announce(started.message);
      } catch (error) {
        ui.resume.removeAttribute("aria-disabled");
        app.announce(app.explain(error));
      }
    } }, "Download the rest");

    replace(main,
      h("h1", {}, book.title),
      h("p", { class: "authors" }, (book.authors ?? []).join(", "), " · Audiobook"),
      book.cover ? h("img", { class: "cover", src: book.cover, alt: "" }) : null,
      ui.chapterNow,
      h("div", { class: "transport", role: "group", "aria-label": "Playback" }, ui.back, ui.play, ui.forward),
      ui.wait, ui.arriving, ui.resume,
      h("label", { for: "scrubber", class: "scrub-label" }, "Position in the book"), ui.scrubber, ui.time, ui.left,
      h("div", { class: "player-settings" },
        h("div", { class: "setting" }, h("label", { for: "speed" }, "Speed"), ui.speed, ui.speedOut),
        h("div", { class: "setting" }, h("label", { for: "volume" }, "Volume of this book"), ui.volume, ui.volumeOut),
        h("div", { class: "setting" }, h("label", { for: "step" }, "Skip by"), ui.stepChoice),
        h("div", { class: "setting" }, h("label", { for: "sleep" }, "Sleep timer"), ui.sleep, ui.cancelSleep),
        ui.sleepLeft),
      h("h2", { id: "chapters-title" }, "Chapters"), ui.chapters);

    const chapterControl = (chapter) => {
      const label = [h("span", { class: "title" }, chapter.title), " ", h("span", { class: "duration" }, clock(chapter.duration))];
      const track = timeline.tracks[chapter.track];
      const why = player.held(chapter.track) ?? notice("listening.chapterArriving");
      const control = timeline.available(chapter)
        ? h("button", { type: "button", "aria-label": `${chapter.title}, ${spoken(chapter.duration)}`, onclick: async () => {
            await player.goToChapter(chapter.index);
            app.announce(`${chapter.title}, at ${spoken(chapter.start)}${player.playing ? "" : ", paused"}`);
          } }, label)
        // A part still downloading, or one that cannot be had or played, cannot be chosen: it says so in words, not
        // by its look alone, and why when pressed.
        : h("button", { type: "button", "aria-disabled": "true", class: track?.state === "unplayable" ? "unplayable" : "downloading",
            "aria-label": `${chapter.title}, ${track?.state === "unplayable" ? "cannot be played" : "still downloading, cannot be chosen yet"}`,
            onclick: () => app.announce(why) },
            label, h("span", { class: "state" }, track?.state === "unplayable" ? " (cannot be played)" : " (downloading)"));
      return control;
    };
    const chapterButtons = timeline.chapters.map((chapter) => {
      const control = chapterControl(chapter);
      ui.chapters.append(h("li", {}, control));
      return control;
    });
    // A chapter whose part arrived can be chosen now, and one whose part stopped or resumed arriving says so: its
    // button is made again (keeping the focus on it).
    const chapterState = (chapter) => timeline.available(chapter) ? "here" : timeline.tracks[chapter.track]?.state;
    const drawnState = chapterButtons.map((_, i) => chapterState(timeline.chapters[i]));
    const chaptersArrived = () => timeline.chapters.forEach((chapter, i) => {
      const old = chapterButtons[i];
      if (chapterState(chapter) === drawnState[i]) return;
      drawnState[i] = chapterState(chapter);
      const fresh = chapterControl(chapter);
      const focused = document.activeElement === old;
      old.replaceWith(fresh);
      chapterButtons[i] = fresh;
      if (focused) fresh.focus();
    });
    const showArrivals = () => {
      ui.arriving.hidden = !player.arriving;
      ui.arriving.textContent = player.arriving ? player.arriving.message : "";
      const resumable = Boolean(player.arriving?.resume);
      if (!resumable) ui.resume.removeAttribute("aria-disabled");
      if (ui.resume.hidden === resumable && document.activeElement === ui.resume) ui.play.focus();
      ui.resume.hidden = !resumable;
    };

    let dragging = false, drawn = false;
    const show = () => {
      // The page is drawn off screen first; once shown and then replaced by another page, it stops listening.
      if (ui.play.isConnected) drawn = true;
      else if (drawn) return detach();
      const position = player.position, duration = timeline.duration;
      ui.play.textContent = player.playing || player.waiting ? "Pause" : "Play";
      if (!player.waiting) ui.wait.hidden = true;
      // The current chapter says "Now playing" only while it plays: paused, nothing does.
      ui.chapters.classList.toggle("playing", player.playing);
      ui.back.textContent = `Back ${player.step} s`;
      ui.back.setAttribute("aria-label", `Back ${spoken(player.step)}`);
      ui.forward.textContent = `Forward ${player.step} s`;
      ui.forward.setAttribute("aria-label", `Forward ${spoken(player.step)}`);
      if (!dragging) {
        ui.scrubber.value = String(Math.round(position));
        ui.scrubber.setAttribute("aria-valuetext", `${spoken(position)} of ${spoken(duration)}`);
        ui.time.textContent = `${clock(position)} of ${clock(duration)}`;
      }
      const chapter = player.chapter;
      if (chapter) {
        ui.chapterNow.textContent = `Chapter ${chapter.index + 1} of ${timeline.chapters.length}: ${chapter.title}`;
        const chapterLeft = (chapter.start + chapter.duration - position) / player.rate;
        ui.left.textContent = `${clock(chapterLeft)} left in this chapter, ${clock((duration - position) / player.rate)} left in the book, at ${Math.round(player.rate * 100) / 100}×`;
        chapterButtons.forEach((button, i) => {
          if (i === chapter.index) button.setAttribute("aria-current", "true"); else button.removeAttribute("aria-current");
        });
      }
      ui.speed.value = String(player.rate);
      ui.speed.setAttribute("aria-valuetext", speedWords(player.rate));
      ui.speedOut.value = `${Math.round(player.rate * 100) / 100}×`;
      ui.volume.value = String(Math.round(player.volume * 100));
      ui.volume.setAttribute("aria-valuetext", `volume ${Math.round(player.volume * 100)} percent`);
      ui.volumeOut.value = `${Math.round(player.volume * 100)}%`;
      ui.stepChoice.value = String(player.step);
      const left = player.sleepLeft;
      ui.cancelSleep.hidden = left === null;
      if (!player.sleep) ui.sleep.value = "";
      ui.sleepLeft.textContent = left === null ? "Sleep timer: off"
        : `Sleep timer: ${player.sleep.mode === "chapter" ? "end of chapter, " : ""}${spoken(left)} left`;
    };
    const events = {
      time: show, state: show, settings: show,
      chapter: (event) => { show(); if (!event.detail?.moved && player.playing && player.chapter) app.announce(`Now playing ${player.chapter.title}`); },
      held: (event) => app.announce(event.detail.why),
      waiting: (event) => {
        ui.wait.hidden = false;
        ui.wait.textContent = event.detail.why;
        app.announce(event.detail.why);
      },
      // A part that came is said (the host's words for how far they are); the bytes in between are only shown.
      arrivals: (event) => {
        chaptersArrived();
        showArrivals();
        if (event.detail.came && player.arriving) app.announce(player.arriving.message);
      },
      sleep: (event) => { if (event.detail?.ended) app.announce(notice("listening.sleepStopped")); show(); },
    };
    for (const [type, handler] of Object.entries(events)) player.addEventListener(type, handler);
    const detach = () => { for (const [type, handler] of Object.entries(events)) player.removeEventListener(type, handler); };

    // The scrubber: arrows move by the skip step; a drag (or a typed value) moves the place when released.
    ui.scrubber.addEventListener("keydown", async (event) => {
      const moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
      if (event.key in moves) {
        event.preventDefault();
        app.announce(await player.skip(moves[event.key] * player.step));
      } else if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        app.announce(await (event.key === "Home" ? player.toStart() : player.toEnd()));
      }
    });
    ui.scrubber.addEventListener("input", () => {
      dragging = true;
      const at = Number(ui.scrubber.value);
      ui.scrubber.setAttribute("aria-valuetext", `${spoken(at)} of ${spoken(timeline.duration)}`);
      ui.time.textContent = `${clock(at)} of ${clock(timeline.duration)}`;
    });
    ui.scrubber.addEventListener("change", async () => {
      dragging = false;
      await player.seek(Number(ui.scrubber.value));
    });
    ui.speed.addEventListener("input", () => player.setRate(Number(ui.speed.value)));
    ui.volume.addEventListener("input", () => player.setVolume(Number(ui.volume.value) / 100));
    ui.stepChoice.addEventListener("change", () => { player.step = Number(ui.stepChoice.value); show(); });
    ui.sleep.addEventListener("change", () => {
      const value = ui.sleep.value;
      player.setSleep(value === "" ? null : value);
      app.announce(value === "" ? "Sleep timer: off" : `Sleep timer: ${value === "chapter" ? "end of chapter" : `${value} minutes`}`);
    });
    ui.cancelSleep.addEventListener("click", () => {
      player.setSleep(null);
      app.announce("Sleep timer: off");
      ui.sleep.focus();
    });
    showArrivals();
    show();
  },
};
