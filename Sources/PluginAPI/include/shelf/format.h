/*
 * shelf plugin ABI, version 1.1 — publication capabilities.
 *
 *   "shelf.format/1"     probe, open, manifest, resource, close   (required of a format plugin)
 *   "shelf.render/1"     a reading-order item as text or HTML with the reader's settings
 *   "shelf.positions/1"  the list of positions ("pages") and locator normalisation
 *   "shelf.search/1"     full-text search
 *   "shelf.probe/1"      (ABI 1.1) a probe that can say why a file it knows cannot be opened
 *
 * The rules in plugin.h (ownership, threading, errors, versions) apply to every call here; each call
 * says from which threads it comes ("Threading:").
 *
 * JSON shapes used below (all Readium, https://readium.org/architecture/):
 *   Manifest  a Readium Web Publication Manifest: {"@context", "metadata": {"title", ...},
 *             "links": [...], "readingOrder": [Link...], "resources": [Link...], "toc": [Link...]}.
 *             A Link is {"href", "type", "title"?, "rel"?, "properties"?, "children"?,
 *             "duration"?}. hrefs are relative to the publication root, percent-encoded.
 *             "metadata.title" and a non-empty "readingOrder" are required; "links" may be
 *             omitted (the host reads it as []), but write "links": [] for other readers.
 *   Locator   {"href", "type", "title"?, "locations": {"position"?, "progression"?,
 *             "totalProgression"?, "fragments"?}, "text"?: {"before", "highlight", "after"}}.
 *             "position" counts from 1 over the whole publication; "progression" is the place
 *             within the href's resource and "totalProgression" within the publication, both in
 *             [0, 1] (for position p of n: totalProgression = (p - 1) / n).

 *
 * ---------------------------------------------------------------------------------------------
 * THE METADATA SHELF READS (everything else in "metadata" is kept and passed on, never required)
 *
 *   "title"       required: a string, or a language map {"en": "...", "fr": "..."} (the first
 *                 value in key order is shown)
 *   "author"      an array of contributors, each {"name": "..."} (a plain string is read too);
 *                 shown, matched against catalogs and reading lists
 *   "language"    a BCP 47 tag ("en", "pt-BR"), or an array of them: the reader's hyphenation
 *                 and text-to-speech voice
 *   "identifier"  the publication's own identifier. "urn:isbn:9780142402498" (13 or 10 digits)
 *                 is the one that matches editions: reading lists, wish lists and a library's
 *                 catalog find the book by it; any other URI only tells this file from a changed
 *                 one. Write the ISBN form when the book states one.
 *   "duration"    seconds, a number: the length of an audiobook (each readingOrder link of a track
 *                 carries its own "duration" too)
 *   cover         not a metadata key: a Link with "rel": "cover" (an image type) in "resources"
 *                 or "links"; the host reads it through `resource`
 *
 * A complete manifest of a text book (shelf.format/1 with render, positions and search):
 *
 *   {"@context": "https://readium.org/webpub-manifest/context.jsonld",
 *    "metadata": {"@type": "http://schema.org/Book", "title": "The Clockmaker's Daughter",
 *                 "author": [{"name": "Ada Brennan"}], "language": "en",
 *                 "identifier": "urn:isbn:9780306406157"},
 *    "links": [],
 *    "readingOrder": [{"href": "chapter-1.txt", "type": "text/plain", "title": "One"},
 *                     {"href": "chapter-2.txt", "type": "text/plain", "title": "Two"}],
 *    "resources": [{"href": "cover.png", "type": "image/png", "rel": "cover"}],
 *    "toc": [{"href": "chapter-1.txt", "title": "One"}, {"href": "chapter-2.txt", "title": "Two"}]}
 *
 * A complete manifest of an audiobook (shelf.format/1 with shelf.audio/1, audio.h):
 *
 *   {"@context": "https://readium.org/webpub-manifest/context.jsonld",
 *    "metadata": {"@type": "http://schema.org/Audiobook", "conformsTo":
 *                 "https://readium.org/webpub-manifest/profiles/audiobook",
 *                 "title": "A Winter Crossing", "author": [{"name": "M. Okafor"}],
 *                 "language": "en", "identifier": "urn:isbn:9780316452502", "duration": 5421.5},
 *    "links": [],
 *    "readingOrder": [{"href": "01.mp3", "type": "audio/mpeg", "title": "Part 1", "duration": 2710.2},
 *                     {"href": "02.mp3", "type": "audio/mpeg", "title": "Part 2", "duration": 2711.3}],
 *    "resources": [{"href": "cover.jpg", "type": "image/jpeg", "rel": "cover"}]}
 *
 * ---------------------------------------------------------------------------------------------
 * HOW THE HOST CHOOSES A PLUGIN FOR A FILE
 *
 *   1. It sniffs the content: zip "mimetype" and container, a JSON manifest's profile, magic
 *      bytes, an XML root element. The answer may be generic: "application/xml",
 *      "application/zip", "application/octet-stream" (or "text/plain" for text it cannot place).
 *   2. A generic answer is refined by what plugins declare: a plugin whose file_extensions list
 *      the file's extension, or whose media_types include "application/<root>+xml" for the XML
 *      file's root element (lowercase, without namespace: <FictionBook> refines to a declared
 *      "application/x-fictionbook+xml" and "application/fictionbook+xml"), turns it into that
 *      plugin's first declared media type. Content always wins over the extension: a ".fb2" that
 *      is a PDF stays "application/pdf".
 *   3. The plugins that declare the resulting media type probe the file; the most confident
 *      opens it (ties go to the plugin loaded first).
 *   4. When no plugin declares that type, or every one answers 0, every format plugin probes
 *      the file and the most confident opens it. So probe must answer any file, quickly, with 0
 *      for what is not its own: the fallback shows it files of every format.
 *   `shelf sniff FILE` shows each step for a file.
 * ---------------------------------------------------------------------------------------------
 */
#ifndef SHELF_FORMAT_H
#define SHELF_FORMAT_H

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open publication: the plugin's own type, opaque to the host. */
typedef struct shelf_publication shelf_publication;

/*
 * One input, as the host presents it to probe and open. Remote inputs are downloaded by the host
 * first, so `path` is always a readable local file.
 */
typedef struct shelf_input {
    uint32_t struct_size;
    const char *path;           /* local file, absolute or relative to the working directory */
    const char *uri;            /* where it came from (the path itself, or an http(s) URL): the base
                                 * against which relative links in the input resolve; never NULL */
    const char *media_type;     /* may be NULL (unknown). The host sniffs the content first (zip
                                 * mimetype and container, JSON profile, magic bytes) and uses the
                                 * file extension only to refine a generic answer, so a ".md" file
                                 * arrives as "text/markdown", a ".epub" that is a PDF as
                                 * "application/pdf". A plugin may look further itself. */
    const uint8_t *head;        /* the first head_size bytes of the file; NULL when head_size is 0 */
    size_t head_size;           /* min(file size, 64 KiB) */
    uint64_t file_size;         /* in bytes */
} shelf_input;

/* ----- shelf.format/1 ---------------------------------------------------------------------- */

#define SHELF_EXT_FORMAT "shelf.format/1"

/* Probe confidences: anything in between is allowed. */
#define SHELF_PROBE_NONE      0    /* not mine */
#define SHELF_PROBE_POSSIBLE 25    /* the extension or a loose signature fits */
#define SHELF_PROBE_LIKELY   50    /* the media type fits, details unchecked */
#define SHELF_PROBE_CERTAIN 100    /* checked: this plugin is the one for it */

typedef struct shelf_format_v1 {
    uint32_t struct_size;

    /* How sure the plugin is that it should open `input`: writes 0..100 to *confidence. Fast (read
     * `head`, at most a few small reads of `path`), no side effects, never fails on foreign bytes:
     * unknown input is SHELF_OK with confidence 0. When two plugins claim one media type (EPUB 2
     * and EPUB 3), the host opens with the most confident. A 1.1 host asks "shelf.probe/1" instead
     * when the plugin offers it (below).
     * Threading: any thread, concurrently with any call but init and deinit (it takes no handle). */
    shelf_status (*probe)(const shelf_input *input, int32_t *confidence);

    /* Opens `input`. On SHELF_OK *out is a handle the host later passes to `close`; on failure *out
     * is left NULL and `err` says why (SHELF_E_BAD_DATA, SHELF_E_PROTECTED, SHELF_E_LIMIT, ...).
     * options_json is an object of open options, or NULL; none are defined in 1.0.
     * Threading: any thread; concurrently with other opens and other handles' calls only with
     * SHELF_PLUGIN_CONCURRENT_HANDLES (the new handle is not yet in use anywhere). */
    shelf_status (*open)(const shelf_input *input, const char *options_json,
                         shelf_publication **out, shelf_error *err);

    /* Writes the publication's Readium Web Publication Manifest (see above) to `out`.
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*manifest)(shelf_publication *publication, const shelf_writer *out,
                             shelf_error *err);

    /* Writes the bytes of the resource at `href` (as in the manifest; may carry a #fragment, which
     * is ignored) to `out`, decoded (de-obfuscated fonts, unpacked entries). SHELF_E_NOT_FOUND when
     * the publication has no such resource, SHELF_E_PROTECTED when it is encrypted by a DRM.
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*resource)(shelf_publication *publication, const char *href,
                             const shelf_writer *out, shelf_error *err);

    /* Releases the handle and everything it owns. Never fails; never called twice.
     * Threading: a handle call, with no other call on this publication or its decoders in flight;
     * every decoder (audio.h) is closed before it. */
    void (*close)(shelf_publication *publication);
} shelf_format_v1;

/* ----- shelf.probe/1 (ABI 1.1) ------------------------------------------------------------- */

#define SHELF_EXT_PROBE "shelf.probe/1"

/*
 * Offered beside "shelf.format/1" by a format plugin that can say why it cannot open a file it
 * knows for its own. A 1.1 host asks this probe instead of the format's; a 1.0 host knows nothing of
 * it (get_extension is never asked for it) and asks the format's, so keep that one answering too.
 */
typedef struct shelf_probe_v1 {
    uint32_t struct_size;

    /* As shelf_format_v1.probe (fast, no side effects, SHELF_OK with 0..100 in *confidence, foreign
     * bytes SHELF_OK with 0, never an error), with one more answer: a file that is this plugin's
     * own but that it cannot open (a version it does not read, a DRM it cannot remove, a damaged
     * header) fails with a status (SHELF_E_UNSUPPORTED, SHELF_E_PROTECTED, SHELF_E_BAD_DATA) and
     * `err` saying why and what to do. The host then asks the other plugins; when none opens the
     * file, the patron reads this error instead of "no installed plugin opens it", and
     * `shelf sniff` shows it. A failure without a message counts as 0, as the format's probe does.
     * Threading: as shelf_format_v1.probe: any thread, concurrently (it takes no handle). */
    shelf_status (*probe)(const shelf_input *input, int32_t *confidence, shelf_error *err);
} shelf_probe_v1;

/* ----- shelf.render/1 ---------------------------------------------------------------------- */

#define SHELF_EXT_RENDER "shelf.render/1"

/*
 * Render settings, a JSON object; every key is optional:
 *   "as":        "text" (default) | "html"
 *   "width":     columns for text wrapping, default 72 (text only)
 *   "fontScale": percent, default 100 (html)
 *   "font":      "publisher" | "serif" | "sans" (html; "publisher": the book's own fonts, which a
 *                format without fonts of its own shows in its default)
 *   "theme":     "day" | "night" | "sepia" (html)
 * A setting is a wish: a value out of range (width 10..1000, fontScale 25..800) is clamped and an
 * unknown value falls back to the default; only JSON that does not parse is
 * SHELF_E_INVALID_ARGUMENT. "html" output is a complete XHTML document.
 */
typedef struct shelf_render_v1 {
    uint32_t struct_size;

    /* Renders the reading-order item that holds `locator_json` (a Locator; NULL means where a
     * reader opens the book, after the cover) with `settings_json` (NULL means defaults). The
     * whole item is rendered; paging within it is the host's business. The rendered document goes
     * to `content`; to `where` goes, as JSON, the Locator of the position that holds the requested
     * locator (for an href alone, the item's first position), with href, type, title and
     * locations, so the host can say "Chapter 3, page 48".
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*render)(shelf_publication *publication, const char *locator_json,
                           const char *settings_json, const shelf_writer *content,
                           const shelf_writer *where, shelf_error *err);
} shelf_render_v1;

/* ----- shelf.positions/1 ------------------------------------------------------------------- */

#define SHELF_EXT_POSITIONS "shelf.positions/1"

typedef struct shelf_positions_v1 {
    uint32_t struct_size;

    /* Writes every position of the publication to `out` as a JSON array of Locators in reading
     * order, each with "locations": {"position": 1.., "progression", "totalProgression"}. A
     * position is a stable "page": the same file always yields the same list, whatever the
     * reader's settings. For reflowable text use Readium's rule, so that positions agree with
     * other reading apps: one position per started 1024 bytes of each reading-order resource (as
     * stored, before rendering); for fixed layout, one per page.
     * "As stored" means the bytes of the resource in the file as the plugin found it: an
     * uncompressed zip entry's size, or the compressed size of a deflated one (Readium's rule for
     * EPUB). When those bytes are not what `resource` returns, the reading-order Link says how
     * many there are in "properties": {"storedLength": N}, so the host can check the count.
     * A single-file format that the plugin splits into reading-order items (a FictionBook's
     * <section>s, a plain-text book's chapters) counts each item's bytes as they stand in the
     * file, from the item's first byte to the next item's first byte (the part of the file the
     * item was cut from, markup included); when `resource` returns other bytes for the item (a
     * section converted to XHTML), "storedLength" gives that count. A resource the plugin makes
     * up and that is not in the file (a generated title page) counts the bytes `resource`
     * returns. Every reading-order item has at least one position. `shelf conformance` checks
     * the count against "storedLength", or else against what `resource` returns.
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*positions)(shelf_publication *publication, const shelf_writer *out,
                              shelf_error *err);

    /* Writes the Locator of the position that holds `locator_json` to `out`. Resolution order:
     * with an empty href, "locations.position" alone decides; otherwise the href's resource, at
     * "progression" if given, else at the first of "fragments" the plugin can find, else at the
     * resource's start ("position" is only a hint then). For any Locator L that `positions`
     * wrote, locate(L) has the same href and position as L. SHELF_E_NOT_FOUND when the locator
     * points outside the publication.
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*locate)(shelf_publication *publication, const char *locator_json,
                           const shelf_writer *out, shelf_error *err);
} shelf_positions_v1;

/* ----- shelf.search/1 ---------------------------------------------------------------------- */

#define SHELF_EXT_SEARCH "shelf.search/1"

typedef struct shelf_search_v1 {
    uint32_t struct_size;

    /* Full-text search. query_json: {"query": "text", "limit": 100 (default)}; "limit" caps the
     * number of hits written. Matching ignores case and diacritics: at least ASCII case, and
     * Unicode case folding and combining marks where the plugin can. Writes a JSON array of
     * Locators in reading order, each with its position and "text": {"before", "highlight",
     * "after"}, where "highlight" is the matched text as it stands in the book and before/after
     * hold up to about 50 characters of context, cut on character boundaries. An empty array
     * when nothing matches.
     * Threading: a handle call (plugin.h): one thread at a time for this publication. */
    shelf_status (*search)(shelf_publication *publication, const char *query_json,
                           const shelf_writer *out, shelf_error *err);
} shelf_search_v1;

#ifdef __cplusplus
}
#endif

#endif /* SHELF_FORMAT_H */
