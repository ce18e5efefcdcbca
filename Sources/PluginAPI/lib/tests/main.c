/* Runs every unit test of libshelf-plugin; exits 1 when one fails.
 * SPDX-License-Identifier: MIT */
#include "check.h"

#include <stdarg.h>

int check_failures, check_count;

int check_(int ok, const char *file, int line, const char *format, ...)
{
    check_count++;
    if (!ok) {
        va_list args;
        check_failures++;
        fprintf(stderr, "FAIL %s:%d: ", file, line);
        va_start(args, format);
        vfprintf(stderr, format, args);
        va_end(args);
        fputc('\n', stderr);
    }
    return ok;
}

/* The library's own buffer, with a refusal on the nth write to test error paths. */
static shelf_status collect(void *context, const void *data, size_t size)
{
    collected *c = context;
    shelf_writer inner = shelf_buffer_writer(&c->buffer);
    shelf_status status;
    c->writes++;
    if (c->refuse_after > 0 && c->writes >= c->refuse_after) return SHELF_E_LIMIT;
    status = inner.write(inner.context, data, size);
    c->data = c->buffer.data;
    c->size = c->buffer.size;
    return status;
}

shelf_writer collector(collected *c)
{
    shelf_writer w;
    memset(c, 0, sizeof *c);
    w.context = c;
    w.write = collect;
    return w;
}

void collected_free(collected *c)
{
    shelf_buffer_free(&c->buffer);
    memset(c, 0, sizeof *c);
}

int main(void)
{
    test_writer();
    test_numbers();
    test_reader();
    test_documents();
    test_speech();
    printf("libshelf-plugin: %d checks, %d failed\n", check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}
