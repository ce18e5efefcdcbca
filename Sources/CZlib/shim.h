#include <zlib.h>

/* inflateInit2 is a macro Swift does not import: the same call as a function. */
static inline int shelf_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
