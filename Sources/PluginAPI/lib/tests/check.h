/* The library's unit tests: a tiny harness (no framework; the tests run under valgrind and ASan).
 * SPDX-License-Identifier: MIT */
#ifndef SHELF_HELPER_CHECK_H
#define SHELF_HELPER_CHECK_H

#include <shelf/helper.h>

extern int check_failures, check_count;

#define CHECK(cond, ...) check_((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)
int check_(int ok, const char *file, int line, const char *format, ...);

/* A shelf_writer collecting into a growing NUL-terminated buffer. */
typedef struct collected {
    shelf_buffer buffer;
    char *data;                 /* buffer.data, for brevity */
    size_t size;
    int refuse_after;           /* > 0: the nth write fails with SHELF_E_LIMIT */
    int writes;
} collected;
shelf_writer collector(collected *c);
void collected_free(collected *c);

void test_writer(void);
void test_numbers(void);
void test_reader(void);
void test_documents(void);
void test_speech(void);

#endif
