#include "CLibZip.h"

#include "CLazyLibrary.h"

#include <stdio.h>
#include <zip.h>

/* The header restates the codes so that Swift never imports zip.h; they must be libzip's. */
_Static_assert(SHELF_ZIP_ER_MULTIDISK == ZIP_ER_MULTIDISK && SHELF_ZIP_ER_SEEK == ZIP_ER_SEEK &&
               SHELF_ZIP_ER_READ == ZIP_ER_READ && SHELF_ZIP_ER_CRC == ZIP_ER_CRC &&
               SHELF_ZIP_ER_NOENT == ZIP_ER_NOENT && SHELF_ZIP_ER_OPEN == ZIP_ER_OPEN &&
               SHELF_ZIP_ER_ZLIB == ZIP_ER_ZLIB && SHELF_ZIP_ER_MEMORY == ZIP_ER_MEMORY &&
               SHELF_ZIP_ER_COMPNOTSUPP == ZIP_ER_COMPNOTSUPP && SHELF_ZIP_ER_EOF == ZIP_ER_EOF &&
               SHELF_ZIP_ER_NOZIP == ZIP_ER_NOZIP && SHELF_ZIP_ER_INCONS == ZIP_ER_INCONS &&
               SHELF_ZIP_ER_ENCRNOTSUPP == ZIP_ER_ENCRNOTSUPP && SHELF_ZIP_ER_NOPASSWD == ZIP_ER_NOPASSWD &&
               SHELF_ZIP_ER_COMPRESSED_DATA == ZIP_ER_COMPRESSED_DATA,
               "SHELF_ZIP_ER_* must equal libzip's ZIP_ER_*");

static struct {
    zip_t *(*open)(const char *, int, int *);
    void (*discard)(zip_t *);
    zip_int64_t (*get_num_entries)(zip_t *, zip_flags_t);
    int (*stat_index)(zip_t *, zip_uint64_t, zip_flags_t, zip_stat_t *);
    zip_error_t *(*get_error)(zip_t *);
    zip_file_t *(*fopen_index)(zip_t *, zip_uint64_t, zip_flags_t);
    zip_int64_t (*fread)(zip_file_t *, void *, zip_uint64_t);
    zip_error_t *(*file_get_error)(zip_file_t *);
    int (*fclose)(zip_file_t *);
    int (*error_code_zip)(const zip_error_t *);
    void (*error_init_with_code)(zip_error_t *, int);
    const char *(*error_strerror)(zip_error_t *);
    void (*error_fini)(zip_error_t *);
} zip;

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&zip.open, "zip_open" },
    { (void **)&zip.discard, "zip_discard" },
    { (void **)&zip.get_num_entries, "zip_get_num_entries" },
    { (void **)&zip.stat_index, "zip_stat_index" },
    { (void **)&zip.get_error, "zip_get_error" },
    { (void **)&zip.fopen_index, "zip_fopen_index" },
    { (void **)&zip.fread, "zip_fread" },
    { (void **)&zip.file_get_error, "zip_file_get_error" },
    { (void **)&zip.fclose, "zip_fclose" },
    { (void **)&zip.error_code_zip, "zip_error_code_zip" },
    { (void **)&zip.error_init_with_code, "zip_error_init_with_code" },
    { (void **)&zip.error_strerror, "zip_error_strerror" },
    { (void **)&zip.error_fini, "zip_error_fini" },
};

/* Debian's sonames: libzip4 (bookworm), then libzip5 (trixie), which kept every call used here. */
static struct shelf_lazy_library library = {
    .sonames = { "libzip.so.4", "libzip.so.5" }, .what = "libzip", .needs = "libzip 1.7 or newer",
    .package = "libzip4", .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *shelf_zip_load(void) { return shelf_lazy_load(&library); }

/* Archives only exist after a successful load, so the functions taking one need no check. */
shelf_zip_archive *shelf_zip_open(const char *path, int *error) {
    if (shelf_zip_load()) {
        *error = -1;
        return NULL;
    }
    *error = 0;
    return (shelf_zip_archive *)zip.open(path, ZIP_RDONLY, error);
}

void shelf_zip_discard(shelf_zip_archive *archive) {
    if (archive) zip.discard((zip_t *)archive);
}

int64_t shelf_zip_entry_count(shelf_zip_archive *archive) { return zip.get_num_entries((zip_t *)archive, 0); }

int shelf_zip_entry(shelf_zip_archive *archive, uint64_t index, shelf_zip_entry_info *info) {
    zip_stat_t st;
    /* Flags 0: names as UTF-8, guessed from code page 437 when they are not UTF-8 and not flagged. */
    if (zip.stat_index((zip_t *)archive, index, 0, &st) != 0) return zip.error_code_zip(zip.get_error((zip_t *)archive));
    const zip_uint64_t needed = ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC |
                                ZIP_STAT_COMP_METHOD | ZIP_STAT_ENCRYPTION_METHOD;
    if ((st.valid & needed) != needed) return ZIP_ER_INCONS;
    info->name = st.name;
    info->size = st.size;
    info->compressed_size = st.comp_size;
    info->crc = st.crc;
    info->method = st.comp_method;
    info->encryption = st.encryption_method;
    return 0;
}

shelf_zip_file *shelf_zip_file_open(shelf_zip_archive *archive, uint64_t index, int *error) {
    zip_file_t *file = zip.fopen_index((zip_t *)archive, index, 0);
    *error = file ? 0 : zip.error_code_zip(zip.get_error((zip_t *)archive));
    return (shelf_zip_file *)file;
}

int64_t shelf_zip_file_read(shelf_zip_file *file, void *buffer, uint64_t count, int *error) {
    zip_int64_t n = zip.fread((zip_file_t *)file, buffer, count);
    *error = n < 0 ? zip.error_code_zip(zip.file_get_error((zip_file_t *)file)) : 0;
    return n;
}

void shelf_zip_file_close(shelf_zip_file *file) {
    if (file) zip.fclose((zip_file_t *)file);
}

const char *shelf_zip_error_text(int code) {
    if (shelf_zip_load()) return "libzip is not available";
    /* zip_error_strerror may keep its text in the error, which zip_error_fini frees: copied out first. */
    static _Thread_local char text[256];
    zip_error_t e;
    zip.error_init_with_code(&e, code);
    snprintf(text, sizeof text, "%s", zip.error_strerror(&e));
    zip.error_fini(&e);
    return text;
}
