/* shelf-plugin-host: how the run reports what came back.
 * SPDX-License-Identifier: MIT */
#include "host.h"

#include <stdarg.h>

int breaches;

void say(const char *what, const char *format, ...)
{
    va_list args;
    printf("%-10s ", what);
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

void breach(const char *call, const char *format, ...)
{
    va_list args;
    breaches++;
    printf("BREACH     %s: ", call);
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

shelf_error fresh_error(void)
{
    shelf_error e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    return e;
}

const char *excerpt(const char *text, size_t limit)
{
    static char line[512];
    size_t i, o = 0;
    if (text == NULL) return "(nothing)";
    if (limit > sizeof line - 4) limit = sizeof line - 4;
    for (i = 0; text[i] && o < limit; i++) line[o++] = text[i] == '\n' || text[i] == '\r' || text[i] == '\t' ? ' ' : text[i];
    if (text[i]) {
        memcpy(line + o, "...", 3);
        o += 3;
    }
    line[o] = '\0';
    return line;
}
