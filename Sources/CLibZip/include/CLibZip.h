#ifndef SHELF_CLIBZIP_H
#define SHELF_CLIBZIP_H

/*
 * libzip for reading, opened on first use instead of linked.
 *
 * Linking libzip costs every shelf process its dependency tree (libcrypto, libbz2, liblzma, libzstd:
 * about 1 ms before main on an idle machine, several on a busy one), yet most commands never open an
 * archive. So neither the host nor a plugin links it: the first archive opened dlopen()s libzip.so
 * and resolves the few entry points below, as CCurl does for libcurl.
 *
 * No libzip type or constant is visible here (the archive and the entry are opaque, the error codes
 * are restated and checked against zip.h when this file's C side compiles), so a test that also links
 * libzip to write archives never sees two declarations of one name.
 */
#include <stdint.h>

typedef struct shelf_zip_archive shelf_zip_archive; /* a zip_t */
typedef struct shelf_zip_file shelf_zip_file;       /* a zip_file_t */

/* libzip's error codes that shelf tells apart (ZIP_ER_* in zip.h, same values). */
enum {
    SHELF_ZIP_ER_OK = 0,
    SHELF_ZIP_ER_MULTIDISK = 1,
    SHELF_ZIP_ER_SEEK = 4,
    SHELF_ZIP_ER_READ = 5,
    SHELF_ZIP_ER_CRC = 7,
    SHELF_ZIP_ER_NOENT = 9,
    SHELF_ZIP_ER_OPEN = 11,
    SHELF_ZIP_ER_ZLIB = 13,
    SHELF_ZIP_ER_MEMORY = 14,
    SHELF_ZIP_ER_COMPNOTSUPP = 16,
    SHELF_ZIP_ER_EOF = 17,
    SHELF_ZIP_ER_NOZIP = 19,
    SHELF_ZIP_ER_INCONS = 21,
    SHELF_ZIP_ER_ENCRNOTSUPP = 24,
    SHELF_ZIP_ER_NOPASSWD = 26,
    SHELF_ZIP_ER_COMPRESSED_DATA = 31,
};

/* What the central directory says of one entry. `name` is UTF-8 (libzip decodes names that are not
   UTF-8 from code page 437, as the format says) and belongs to the archive. */
typedef struct {
    const char *name;
    uint64_t size;
    uint64_t compressed_size;
    uint32_t crc;
    uint16_t method;
    uint16_t encryption; /* 0: none */
} shelf_zip_entry_info;

/* Opens libzip, once per process, thread-safe. NULL when ready; otherwise a message saying what is
   missing. Every function below that can come first calls it. */
const char *shelf_zip_load(void);

/* Read only. NULL on failure, with a SHELF_ZIP_ER_* code in *error (-1: libzip could not be opened). */
shelf_zip_archive *shelf_zip_open(const char *path, int *error);
void shelf_zip_discard(shelf_zip_archive *archive);
int64_t shelf_zip_entry_count(shelf_zip_archive *archive);
/* 0, or a SHELF_ZIP_ER_* code. */
int shelf_zip_entry(shelf_zip_archive *archive, uint64_t index, shelf_zip_entry_info *info);

/* One entry, inflated and checked (CRC and size at its end). NULL on failure, with the code in *error. */
shelf_zip_file *shelf_zip_file_open(shelf_zip_archive *archive, uint64_t index, int *error);
/* Bytes read, 0 at the end, -1 on failure with the code in *error. */
int64_t shelf_zip_file_read(shelf_zip_file *file, void *buffer, uint64_t count, int *error);
void shelf_zip_file_close(shelf_zip_file *file);

/* libzip's own sentence for a code, for the codes shelf has no sentence of its own. */
const char *shelf_zip_error_text(int code); /* per thread, until the next call */

#endif
