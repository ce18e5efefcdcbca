/* libshelf-plugin: numbers as JSON writes them, whatever LC_NUMERIC says.
 *
 * printf and strtod follow the locale: under de_DE "%g" writes "0,5" and strtod stops at "0.5"'s
 * '.'. Both directions therefore go through the C library in the current locale and translate its
 * decimal point, which is learnt from the library itself (it may be several bytes long).
 * SPDX-License-Identifier: MIT */
#include "internal.h"

#include <float.h>
#include <stdlib.h>

/* The current locale's decimal point, as snprintf writes it between "0" and "5". */
static size_t decimal_point(char point[16])
{
    char probe[32];
    int n = snprintf(probe, sizeof probe, "%.1f", 0.5);
    size_t length;
    if (n < 3 || (size_t)n >= sizeof probe || probe[0] != '0' || probe[n - 1] != '5') {
        point[0] = '.';
        point[1] = '\0';
        return 1;
    }
    length = (size_t)n - 2;
    if (length >= 16) length = 15;
    memcpy(point, probe + 1, length);
    point[length] = '\0';
    return length;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static size_t format_whole(uint64_t magnitude, int negative, char *text)
{
    char digits[24];
    size_t n = 0, i = 0;
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (negative) text[i++] = '-';
    while (n > 0) text[i++] = digits[--n];
    text[i] = '\0';
    return i;
}

size_t shelf_number_format(double value, char *text)
{
    char local[48];
    int precision;
    size_t i, o = 0;
    if (value != value || value > DBL_MAX || value < -DBL_MAX) {
        memcpy(text, "null", 5);
        return 4;
    }
    if (value == 0) {                               /* and -0, which JSON readers differ on */
        memcpy(text, "0", 2);
        return 1;
    }
    if (value == (double)(int64_t)value && value > -9007199254740992.0 && value < 9007199254740992.0) {
        int negative = value < 0;
        return format_whole((uint64_t)(negative ? -value : value), negative, text);
    }
    for (precision = 15; precision <= 17; precision++) {    /* the shortest that reads back */
        snprintf(local, sizeof local, "%.*g", precision, value);
        if (strtod(local, NULL) == value) break;
    }
    /* Whatever is not a digit, sign or exponent is the locale's decimal point. */
    for (i = 0; local[i] != '\0' && o < 31; ) {
        char c = local[i];
        if (is_digit(c) || c == '-' || c == '+' || c == 'e' || c == 'E') {
            text[o++] = c;
            i++;
        } else {
            text[o++] = '.';
            while (local[i] != '\0' && !is_digit(local[i])) i++;
        }
    }
    text[o] = '\0';
    return o;
}

size_t shelf_number_scan_(const char *text, size_t size)
{
    size_t i = 0, digits;
    if (i < size && text[i] == '-') i++;
    if (i < size && text[i] == '0') {
        i++;
    } else {
        for (digits = 0; i < size && is_digit(text[i]); i++) digits++;
        if (digits == 0) return 0;
    }
    if (i < size && text[i] == '.') {
        i++;
        for (digits = 0; i < size && is_digit(text[i]); i++) digits++;
        if (digits == 0) return 0;
    }
    if (i < size && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < size && (text[i] == '+' || text[i] == '-')) i++;
        for (digits = 0; i < size && is_digit(text[i]); i++) digits++;
        if (digits == 0) return 0;
    }
    return i;
}

int shelf_number_parse(const char *text, size_t size, double *value)
{
    char point[16], small[128], *local;
    size_t point_size, i, o = 0;
    double v;
    if (text == NULL || size == 0 || shelf_number_scan_(text, size) != size) return 0;
    point_size = decimal_point(point);
    local = size + point_size < sizeof small ? small : malloc(size + point_size + 1);
    if (local == NULL) return 0;
    for (i = 0; i < size; i++) {
        if (text[i] == '.') {
            memcpy(local + o, point, point_size);
            o += point_size;
        } else {
            local[o++] = text[i];
        }
    }
    local[o] = '\0';
    v = strtod(local, NULL);
    if (local != small) free(local);
    *value = v;
    return 1;
}
