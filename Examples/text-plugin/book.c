/*
 * Reading a text book: the file, its UTF-8 check, chapters, positions, title, author, language.
 */
#define _POSIX_C_SOURCE 200809L
#include "text.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

/* ----- UTF-8 ---------------------------------------------------------------------------------- */

size_t utf8_sequence(const unsigned char *s, size_t n, unsigned long *codepoint)
{
    unsigned long cp;
    size_t len, i;
    if (n == 0) return 0;
    if (s[0] < 0x80) { cp = s[0]; len = 1; }
    else if (s[0] >= 0xC2 && s[0] <= 0xDF) { cp = s[0] & 0x1F; len = 2; }
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) { cp = s[0] & 0x0F; len = 3; }
    else if (s[0] >= 0xF0 && s[0] <= 0xF4) { cp = s[0] & 0x07; len = 4; }
    else return 0;
    if (len > n) return 0;
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates, beyond U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))
        || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    if (codepoint) *codepoint = cp;
    return len;
}

size_t utf8_check(const unsigned char *text, size_t n, int allow_truncated_end)
{
    size_t i = 0;
    while (i < n) {
        size_t len;
        if (text[i] == 0) return i;
        if (text[i] < 0x80) { i++; continue; }
        len = utf8_sequence(text + i, n - i, NULL);
        if (len == 0) {
            /* A sequence cut by the end of a partial read: accept it if every byte so far fits. */
            if (allow_truncated_end && n - i < 4) {
                size_t j;
                int need = text[i] >= 0xF0 ? 4 : text[i] >= 0xE0 ? 3 : 2;
                int ok = text[i] >= 0xC2 && text[i] <= 0xF4 && (size_t)need > n - i;
                for (j = i + 1; ok && j < n; j++) ok = (text[j] & 0xC0) == 0x80;
                if (ok) return n;
            }
            return i;
        }
        i += len;
    }
    return n;
}

size_t utf8_length(const char *s, size_t n)
{
    size_t i, count = 0;
    for (i = 0; i < n; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) count++;
    }
    return count;
}

/* ----- small string helpers ------------------------------------------------------------------- */

static char *copy_range(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static int starts_with_nocase(const char *s, size_t n, const char *prefix)
{
    size_t i;
    for (i = 0; prefix[i]; i++) {
        if (i >= n || lower(s[i]) != prefix[i]) return 0;
    }
    return 1;
}

/* Trims spaces and the given decoration characters from both ends of s[*b..*e). */
static void trim(const char *s, size_t *b, size_t *e, const char *decoration)
{
    while (*b < *e && (is_space(s[*b]) || strchr(decoration, s[*b]))) (*b)++;
    while (*e > *b && (is_space(s[*e - 1]) || strchr(decoration, s[*e - 1]))) (*e)--;
}

/* A title or name of at most 200 bytes, cut on a UTF-8 boundary. */
static char *copy_label(const char *s, size_t b, size_t e, const char *decoration)
{
    trim(s, &b, &e, decoration);
    if (e - b > 200) {
        e = b + 200;
        while (e > b && ((unsigned char)s[e] & 0xC0) == 0x80) e--;
    }
    return copy_range(s + b, e - b);
}

/* The line starting at `i`: sets *end to the offset of its '\n' (or the text end). */
static size_t line_end(const char *text, size_t size, size_t i)
{
    const char *nl = memchr(text + i, '\n', size - i);
    return nl ? (size_t)(nl - text) : size;
}

/* ----- chapter headings ----------------------------------------------------------------------- */

/* Markdown ATX heading of level 1 or 2 ("# Title", "## Title"): returns the level, 0 otherwise. */
static int markdown_heading(const char *line, size_t n)
{
    size_t hashes = 0;
    while (hashes < n && line[hashes] == '#') hashes++;
    if (hashes < 1 || hashes > 2) return 0;
    if (hashes < n && (line[hashes] == ' ' || line[hashes] == '\t')) return (int)hashes;
    return 0;
}

static int is_roman_or_number(const char *s, size_t n)
{
    size_t i;
    if (n == 0) return 0;
    for (i = 0; i < n; i++) {
        if (!strchr("IVXLCDMivxlcdm0123456789", s[i])) return 0;
    }
    return 1;
}

/* Plain-text chapter heading: "CHAPTER I", "Chapter 12. The Storm", "Chapter One". */
int book_chapter_line(const char *line, size_t n)
{
    size_t b = 0, e = n, w;
    static const char *const words[] = {
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty", "first", "last", NULL
    };
    size_t k;
    trim(line, &b, &e, "");
    if (e - b > 80 || !starts_with_nocase(line + b, e - b, "chapter ")) return 0;
    b += 8;
    while (b < e && line[b] == ' ') b++;
    w = b;
    while (w < e && !is_space(line[w]) && line[w] != '.' && line[w] != ':') w++;
    if (is_roman_or_number(line + b, w - b)) return 1;
    for (k = 0; words[k]; k++) {
        if (w - b == strlen(words[k]) && starts_with_nocase(line + b, w - b, words[k])) return 1;
    }
    return 0;
}

/* ----- front matter and metadata -------------------------------------------------------------- */

/* YAML-ish front matter: "---" line, "key: value" lines, "---" line. Returns the byte offset where
 * the body starts (0 when there is none). */
static size_t front_matter(const char *text, size_t size, size_t start)
{
    size_t i = start, e = line_end(text, size, i);
    size_t b2 = i, e2 = e;
    trim(text, &b2, &e2, "");
    if (e2 - b2 != 3 || strncmp(text + b2, "---", 3) != 0) return 0;
    i = e < size ? e + 1 : size;
    while (i < size) {
        size_t le = line_end(text, size, i), lb = i, lt = le;
        trim(text, &lb, &lt, "");
        if (lt - lb == 3 && (strncmp(text + lb, "---", 3) == 0 || strncmp(text + lb, "...", 3) == 0)) {
            return le < size ? le + 1 : size;
        }
        i = le < size ? le + 1 : size;
    }
    return 0;   /* never closed: not front matter */
}

/* Value of "key:" in lines [from, to), or NULL. */
static char *field(const char *text, size_t from, size_t to, const char *key)
{
    size_t i = from, klen = strlen(key);
    while (i < to) {
        size_t le = line_end(text, to, i), b = i, e = le;
        trim(text, &b, &e, "");
        if (starts_with_nocase(text + b, e - b, key) && e - b > klen && text[b + klen] == ':') {
            return copy_label(text, b + klen + 1, e, "\"'");
        }
        i = le < to ? le + 1 : to;
    }
    return NULL;
}

static int looks_like_language_tag(const char *s)
{
    size_t i = 0, part = 0;
    while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) i++;
    if (i < 2 || i > 3) return 0;
    for (; s[i]; i++) {
        if (s[i] == '-') {
            if (part == 0 && i > 0 && s[i - 1] == '-') return 0;
            part = 0;
        } else if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
                   || (s[i] >= '0' && s[i] <= '9')) {
            if (++part > 8) return 0;
        } else {
            return 0;
        }
    }
    return s[i - 1] != '-';
}

/* ----- opening -------------------------------------------------------------------------------- */

static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (dot == NULL || (slash != NULL && dot < slash)) return "";
    return dot + 1;
}

static int extension_is(const char *path, const char *ext)
{
    const char *e = extension_of(path);
    return strlen(e) == strlen(ext) && starts_with_nocase(e, strlen(e), ext);
}

const char *book_media_type(const shelf_publication *book)
{
    return book->markdown ? "text/markdown" : "text/plain";
}

void book_close(shelf_publication *book)
{
    size_t i;
    if (book == NULL) return;
    for (i = 0; i < book->chapter_count; i++) free(book->chapters[i].title);
    free(book->chapters);
    free(book->positions);
    free(book->title);
    free(book->author);
    free(book->language);
    free(book->text);
    free(book);
}

static shelf_status no_memory(shelf_error *err)
{
    return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory while opening the book");
}

/* Reads the whole file into book->text. */
static shelf_status read_file(const char *path, const shelf_host *host, shelf_publication *book,
                              shelf_error *err)
{
    FILE *f;
    struct stat st;
    size_t capacity, used = 0;
    errno = 0;
    f = fopen(path, "rb");
    if (f == NULL) {
        int e = errno;
        if (e == ENOENT || e == ENOTDIR) {
            return shelf_error_set(err, SHELF_E_NOT_FOUND, path, "no such file: %s", path);
        }
        if (e == EACCES || e == EPERM) {
            return shelf_error_set(err, SHELF_E_IO, path,
                                   "cannot read %s: permission denied", path);
        }
        return shelf_error_set(err, SHELF_E_IO, path, "cannot open %s: %s", path, strerror(e));
    }
    if (fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
        fclose(f);
        return shelf_error_set(err, SHELF_E_BAD_DATA, path,
                               "%s is not a regular file (a folder?): give the path of a text file",
                               path);
    }
    if (fstat(fileno(f), &st) == 0 && (unsigned long long)st.st_size > TEXT_MAX_FILE_SIZE) {
        fclose(f);
        return shelf_error_set(err, SHELF_E_LIMIT, path,
                               "%s is %llu MiB; text books are limited to %lu MiB", path,
                               (unsigned long long)st.st_size >> 20,
                               (unsigned long)(TEXT_MAX_FILE_SIZE >> 20));
    }
    capacity = (st.st_size > 0 ? (size_t)st.st_size : 4096) + 1;
    book->text = malloc(capacity);
    if (book->text == NULL) {
        fclose(f);
        return no_memory(err);
    }
    for (;;) {
        size_t n;
        if (used + 1 == capacity) {      /* the file grew while we read it */
            char *bigger;
            if (capacity > TEXT_MAX_FILE_SIZE) {
                fclose(f);
                return shelf_error_set(err, SHELF_E_LIMIT, path,
                                       "%s is larger than the %lu MiB limit for text books",
                                       path, (unsigned long)(TEXT_MAX_FILE_SIZE >> 20));
            }
            bigger = realloc(book->text, capacity * 2);
            if (bigger == NULL) {
                fclose(f);
                return no_memory(err);
            }
            book->text = bigger;
            capacity *= 2;
        }
        n = fread(book->text + used, 1, capacity - 1 - used, f);
        used += n;
        if (n == 0) break;
        if (host != NULL && host->is_cancelled != NULL && host->is_cancelled(host)) {
            fclose(f);
            return shelf_error_set(err, SHELF_E_CANCELLED, path, "opening %s was cancelled", path);
        }
    }
    if (ferror(f)) {
        int e = errno;
        fclose(f);
        return shelf_error_set(err, SHELF_E_IO, path, "reading %s failed: %s", path, strerror(e));
    }
    fclose(f);
    if (used > TEXT_MAX_FILE_SIZE) {
        return shelf_error_set(err, SHELF_E_LIMIT, path,
                               "%s is larger than the %lu MiB limit for text books", path,
                               (unsigned long)(TEXT_MAX_FILE_SIZE >> 20));
    }
    book->text[used] = '\0';
    book->size = used;
    return SHELF_OK;
}

/* Adds a chapter covering [start, end) with the given title (taken over). */
static int add_chapter(shelf_publication *book, size_t *capacity, size_t start, size_t end,
                       char *title)
{
    chapter *c;
    if (title == NULL) return 0;
    if (book->chapter_count == *capacity) {
        size_t n = *capacity ? *capacity * 2 : 16;
        chapter *bigger = realloc(book->chapters, n * sizeof *bigger);
        if (bigger == NULL) {
            free(title);
            return 0;
        }
        book->chapters = bigger;
        *capacity = n;
    }
    c = &book->chapters[book->chapter_count];
    memset(c, 0, sizeof *c);
    c->start = start;
    c->end = end;
    c->title = title;
    snprintf(c->href, sizeof c->href, "chapter-%lu.%s", (unsigned long)(book->chapter_count + 1),
             book->markdown ? "md" : "txt");
    book->chapter_count++;
    return 1;
}

static int has_text(const char *s, size_t b, size_t e)
{
    for (; b < e; b++) {
        if (!is_space(s[b])) return 1;
    }
    return 0;
}

/* Splits [body, size) into chapters at headings. */
static shelf_status split_chapters(shelf_publication *book, size_t body, shelf_error *err)
{
    const char *t = book->text;
    size_t i = body, capacity = 0, section = body;
    int fenced = 0, in_section = 0;
    char *section_title = NULL;
    while (i < book->size) {
        size_t le = line_end(t, book->size, i), b = i, e = le;
        int heading = 0;
        trim(t, &b, &e, "");
        if (book->markdown) {
            if (e - b >= 3 && (strncmp(t + b, "```", 3) == 0 || strncmp(t + b, "~~~", 3) == 0)) {
                fenced = !fenced;
            } else if (!fenced && b == i) {
                heading = markdown_heading(t + i, le - i) > 0;
            }
        } else {
            heading = book_chapter_line(t + i, le - i);
        }
        if (heading) {
            /* close the section before: the preamble only when it holds text */
            if (in_section || has_text(t, section, i)) {
                char *title = in_section ? section_title : copy_range(book->title, strlen(book->title));
                section_title = NULL;
                if (!add_chapter(book, &capacity, section, i, title)) return no_memory(err);
            }
            section = i;
            in_section = 1;
            section_title = copy_label(t, b, e, book->markdown ? "#" : "");
            if (section_title == NULL) return no_memory(err);
            if (section_title[0] == '\0') {
                free(section_title);
                section_title = copy_range(book->title, strlen(book->title));
                if (section_title == NULL) return no_memory(err);
            }
        }
        i = le < book->size ? le + 1 : book->size;
    }
    if (in_section || has_text(t, section, book->size) || book->chapter_count == 0) {
        char *title = in_section ? section_title : copy_range(book->title, strlen(book->title));
        if (!add_chapter(book, &capacity, section, book->size, title)) return no_memory(err);
    }
    return SHELF_OK;
}

static shelf_status make_positions(shelf_publication *book, shelf_error *err)
{
    size_t c, total = 0, k = 0;
    for (c = 0; c < book->chapter_count; c++) {
        size_t len = book->chapters[c].end - book->chapters[c].start;
        size_t n = len == 0 ? 1 : (len + TEXT_POSITION_BYTES - 1) / TEXT_POSITION_BYTES;
        book->chapters[c].first_position = total;
        book->chapters[c].position_count = n;
        total += n;
    }
    book->positions = malloc(total * sizeof *book->positions);
    if (book->positions == NULL) return no_memory(err);
    for (c = 0; c < book->chapter_count; c++) {
        const chapter *ch = &book->chapters[c];
        size_t len = ch->end - ch->start, j;
        for (j = 0; j < ch->position_count; j++) {
            size_t at = j * TEXT_POSITION_BYTES;
            /* start each position on a UTF-8 boundary */
            while (at > 0 && at < len && ((unsigned char)book->text[ch->start + at] & 0xC0) == 0x80) at++;
            book->positions[k].chapter = c;
            book->positions[k].start = at < len ? at : len;
            k++;
        }
    }
    book->position_count = total;
    return SHELF_OK;
}

/* Title, author and language from front matter, headings and the first lines. */
static shelf_status find_metadata(shelf_publication *book, const char *path, size_t fm_start,
                                  size_t body)
{
    const char *t = book->text;
    size_t i = body, lines = 0;
    int headings = 0;
    if (body > fm_start) {
        book->title = field(t, fm_start, body, "title");
        book->author = field(t, fm_start, body, "author");
        book->language = field(t, fm_start, body, "language");
        if (book->language == NULL) book->language = field(t, fm_start, body, "lang");
    }
    if (book->title && book->title[0] == '\0') { free(book->title); book->title = NULL; }
    if (book->author && book->author[0] == '\0') { free(book->author); book->author = NULL; }
    if (book->language && !looks_like_language_tag(book->language)) {
        free(book->language);
        book->language = NULL;
    }
    /* The front of the book (the first 40 lines, before the first chapter heading of a text book
     * or the second heading of a Markdown book): a heading or first short line for the title,
     * a short "by NAME" or "Author: NAME" line for the author. */
    while (i < book->size && lines < 40) {
        size_t le = line_end(t, book->size, i), b = i, e = le;
        int is_heading = book->markdown ? markdown_heading(t + i, le - i) > 0
                                        : book_chapter_line(t + i, le - i);
        trim(t, &b, &e, "*_");
        if (is_heading && ++headings > (book->markdown ? 1 : 0)) break;
        if (e > b) {
            if (book->title == NULL && (is_heading || lines == 0) && e - b <= 120) {
                book->title = copy_label(t, b, e, "#*_");
                if (book->title == NULL) return SHELF_E_NO_MEMORY;
            }
            if (book->author == NULL && e - b <= 80 && e - b > 3
                && starts_with_nocase(t + b, e - b, "by ")) {
                book->author = copy_label(t, b + 3, e, "*_");
                if (book->author == NULL) return SHELF_E_NO_MEMORY;
            } else if (book->author == NULL && e - b <= 80
                       && starts_with_nocase(t + b, e - b, "author:")) {
                book->author = copy_label(t, b + 7, e, "*_");
                if (book->author == NULL) return SHELF_E_NO_MEMORY;
            }
            lines++;
        }
        i = le < book->size ? le + 1 : book->size;
    }
    if (book->title == NULL || book->title[0] == '\0') {
        const char *slash = strrchr(path, '/');
        const char *name = slash ? slash + 1 : path;
        const char *dot = strrchr(name, '.');
        free(book->title);
        book->title = copy_range(name, dot && dot > name ? (size_t)(dot - name) : strlen(name));
        if (book->title == NULL) return SHELF_E_NO_MEMORY;
    }
    if (book->author && book->author[0] == '\0') { free(book->author); book->author = NULL; }
    return SHELF_OK;
}

static int line_and_column(const char *text, size_t offset, size_t *column)
{
    size_t i, line = 1, start = 0;
    for (i = 0; i < offset; i++) {
        if (text[i] == '\n') { line++; start = i + 1; }
    }
    *column = offset - start + 1;
    return (int)line;
}

shelf_status book_open(const shelf_input *input, const shelf_host *host,
                       shelf_publication **out, shelf_error *err)
{
    shelf_publication *book;
    shelf_status status;
    size_t bad, start = 0, body;
    const char *path = input->path;

    book = calloc(1, sizeof *book);
    if (book == NULL) return no_memory(err);
    status = read_file(path, host, book, err);
    if (status != SHELF_OK) {
        book_close(book);
        return status;
    }
    if (book->size >= 3 && memcmp(book->text, "\xEF\xBB\xBF", 3) == 0) start = 3;  /* BOM */
    if (!has_text(book->text, start, book->size)) {
        book_close(book);
        return shelf_error_set(err, SHELF_E_BAD_DATA, path,
                               "%s is empty: there is no text to read", path);
    }
    bad = utf8_check((const unsigned char *)book->text, book->size, 0);
    if (bad < book->size) {
        char where[64];
        size_t column;
        int line = line_and_column(book->text, bad, &column);
        unsigned byte = (unsigned char)book->text[bad];
        snprintf(where, sizeof where, "byte offset %lu (line %d)", (unsigned long)bad, line);
        book_close(book);
        if (byte == 0) {
            return shelf_error_set(err, SHELF_E_BAD_DATA, where,
                                   "%s has a NUL byte at byte offset %lu (line %d): it is a binary "
                                   "file, not a text book", path, (unsigned long)bad, line);
        }
        return shelf_error_set(err, SHELF_E_BAD_DATA, where,
                               "%s is not valid UTF-8 at byte offset %lu (line %d, column %lu, byte "
                               "0x%02X): save it as UTF-8 and try again", path, (unsigned long)bad,
                               line, (unsigned long)column, byte);
    }

    /* Markdown by declared media type or extension; else by a heading near the top. */
    if ((input->media_type && strcmp(input->media_type, "text/markdown") == 0)
        || extension_is(path, "md") || extension_is(path, "markdown")) {
        book->markdown = 1;
    } else if (!extension_is(path, "txt") && !extension_is(path, "text")) {
        size_t i = start, lines = 0;
        while (i < book->size && lines++ < 200 && !book->markdown) {
            size_t le = line_end(book->text, book->size, i);
            book->markdown = markdown_heading(book->text + i, le - i) > 0;
            i = le < book->size ? le + 1 : book->size;
        }
    }

    body = book->markdown ? front_matter(book->text, book->size, start) : 0;
    if (body == 0) body = start;
    status = find_metadata(book, path, start, body);
    if (status == SHELF_OK) status = split_chapters(book, body, err);
    else no_memory(err);
    if (status == SHELF_OK) status = make_positions(book, err);
    if (status != SHELF_OK) {
        book_close(book);
        return status;
    }
    *out = book;
    return SHELF_OK;
}

const chapter *book_find_chapter(const shelf_publication *book, const char *href)
{
    size_t i, n;
    const char *hash;
    if (href == NULL) return NULL;
    if (href[0] == '/') href++;
    else if (href[0] == '.' && href[1] == '/') href += 2;
    hash = strchr(href, '#');
    n = hash ? (size_t)(hash - href) : strlen(href);
    for (i = 0; i < book->chapter_count; i++) {
        if (strlen(book->chapters[i].href) == n && strncmp(book->chapters[i].href, href, n) == 0) {
            return &book->chapters[i];
        }
    }
    return NULL;
}

size_t book_position_at(const shelf_publication *book, size_t c, size_t offset)
{
    const chapter *ch = &book->chapters[c];
    size_t k = ch->first_position, last = ch->first_position + ch->position_count - 1;
    while (k < last && book->positions[k + 1].start <= offset) k++;
    return k;
}
