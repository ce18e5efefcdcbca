/* libshelf-plugin: a growable buffer behind a shelf_writer.
 * SPDX-License-Identifier: MIT */
#include "internal.h"

#include <stdlib.h>

static shelf_status buffer_write(void *context, const void *data, size_t size)
{
    shelf_buffer *b = context;
    size_t limit = b->limit ? b->limit : (size_t)16 << 20;
    if (size > limit || b->size > limit - size) return SHELF_E_LIMIT;
    if (b->size + size + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        char *grown;
        while (capacity < b->size + size + 1) capacity *= 2;
        grown = realloc(b->data, capacity);
        if (grown == NULL) return SHELF_E_NO_MEMORY;
        b->data = grown;
        b->capacity = capacity;
    }
    if (size > 0) memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = '\0';
    return SHELF_OK;
}

shelf_writer shelf_buffer_writer(shelf_buffer *buffer)
{
    shelf_writer w;
    w.context = buffer;
    w.write = buffer_write;
    return w;
}

void shelf_buffer_reset(shelf_buffer *buffer)
{
    buffer->size = 0;
    if (buffer->data != NULL) buffer->data[0] = '\0';
}

void shelf_buffer_free(shelf_buffer *buffer)
{
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}
