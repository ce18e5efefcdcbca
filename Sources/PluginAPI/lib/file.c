/* libshelf-plugin: reading a whole input file, and errors that say what to do.
 * SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

shelf_status shelf_error_no_memory(shelf_error *err, const char *doing)
{
    return shelf_error_set(err, SHELF_E_NO_MEMORY, NULL, "out of memory while %s", doing ? doing : "working");
}

shelf_status shelf_read_file(const char *path, size_t limit, char **data, size_t *size, shelf_error *err)
{
    FILE *f;
    struct stat st;
    char *buffer;
    size_t n;
    *data = NULL;
    *size = 0;
    if (path == NULL || path[0] == '\0') {
        return shelf_error_set(err, SHELF_E_INVALID_ARGUMENT, NULL, "no file path was given");
    }
    f = fopen(path, "rb");
    if (f == NULL) {
        int e = errno;
        return shelf_error_set(err, e == ENOENT || e == ENOTDIR ? SHELF_E_NOT_FOUND : SHELF_E_IO, path,
                               "cannot open %s: %s", path, strerror(e));
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return shelf_error_set(err, SHELF_E_BAD_DATA, path, "%s is not a regular file", path);
    }
    if ((uint64_t)st.st_size > (uint64_t)limit) {
        fclose(f);
        return shelf_error_set(err, SHELF_E_LIMIT, path, "%s is %llu bytes, more than the %lu this plugin reads",
                               path, (unsigned long long)st.st_size, (unsigned long)limit);
    }
    buffer = malloc((size_t)st.st_size + 1);
    if (buffer == NULL) {
        fclose(f);
        return shelf_error_no_memory(err, "reading the file");
    }
    n = fread(buffer, 1, (size_t)st.st_size, f);
    if (ferror(f)) {
        int e = errno;
        free(buffer);
        fclose(f);
        return shelf_error_set(err, SHELF_E_IO, path, "cannot read %s: %s", path, strerror(e));
    }
    fclose(f);
    buffer[n] = '\0';
    *data = buffer;
    *size = n;
    return SHELF_OK;
}
