/* Each call of the ABI, unpacked from shelf's request, made on the plugin, and its outcome sent back as the reply.
 * Handles (publications, decoders, connections) cross as the plugin's own pointers, as integers: shelf hands back
 * only what this process gave it. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <stdlib.h>

#define OUTPUT_LIMIT (SHELF_CHANNEL_MAX_MESSAGE / 2)

/* The plugin being answered, so that a cut answer names it. */
static const shelf_plugin_descriptor *answering;

static shelf_status write_output(void *context, const void *data, size_t size)
{
    output *out = context;
    if (size > OUTPUT_LIMIT - out->size) {
        out->overflowed = 1;
        return SHELF_E_LIMIT;
    }
    if (out->size + size > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        uint8_t *grown;
        while (capacity < out->size + size) capacity *= 2;
        grown = realloc(out->data, capacity);
        if (grown == NULL) return SHELF_E_NO_MEMORY;
        out->data = grown;
        out->capacity = capacity;
    }
    if (size) memcpy(out->data + out->size, data, size);
    out->size += size;
    return SHELF_OK;
}

shelf_writer output_writer(output *out)
{
    shelf_writer w = { out, write_output };
    return w;
}

void output_free(output *out)
{
    free(out->data);
    memset(out, 0, sizeof *out);
}

int reply(shelf_status status, const shelf_error *err, uint32_t count, const void *const *fields, const uint32_t *lengths)
{
    const void *all[SHELF_CHANNEL_MAX_FIELDS];
    uint32_t sizes[SHELF_CHANNEL_MAX_FIELDS], i;
    int64_t code = status;
    const char *message = err && status != SHELF_OK ? err->message : "";
    const char *location = err && status != SHELF_OK ? err->location : "";
    all[0] = &code; sizes[0] = sizeof code;
    all[1] = message; sizes[1] = (uint32_t)strnlen(message, SHELF_ERROR_MESSAGE_MAX);
    all[2] = location; sizes[2] = (uint32_t)strnlen(location, SHELF_ERROR_LOCATION_MAX);
    for (i = 0; i < count && i + 3 < SHELF_CHANNEL_MAX_FIELDS; i++) {
        all[3 + i] = fields[i];
        sizes[3 + i] = lengths[i];
    }
    return shelf_channel_send(channel, SHELF_OP_REPLY, 3 + i, all, sizes);
}

/* An answer cut at the limit is a failure the host words, not the plugin: the plugin may have passed the writer's
 * refusal on with words of its own ("stopped"), or ignored it and returned SHELF_OK with the answer cut short. */
static shelf_status overflow(shelf_status status, shelf_error *err, const output *a, const output *b)
{
    const output *cut = a->overflowed ? a : b != NULL && b->overflowed ? b : NULL;
    if (cut == NULL) return status;
    return shelf_error_set(err, SHELF_E_LIMIT, NULL, "the plugin \"%s\" (%s) wrote more than %u MiB in one answer, more than shelf takes",
                           answering && answering->name ? answering->name : "?", answering && answering->id ? answering->id : "?",
                           (unsigned)(OUTPUT_LIMIT >> 20));
}

static int reply_output(shelf_status status, shelf_error *err, output *out)
{
    const void *field = out->data ? (const void *)out->data : "";
    uint32_t length;
    int sent;
    status = overflow(status, err, out, NULL);
    length = status == SHELF_OK ? (uint32_t)out->size : 0;
    sent = reply(status, err, 1, &field, &length);
    output_free(out);
    return sent;
}

static int reply_number(shelf_status status, const shelf_error *err, int64_t number)
{
    const void *field = &number;
    uint32_t length = sizeof number;
    return reply(status, err, 1, &field, &length);
}

static shelf_error fresh_error(void)
{
    shelf_error err;
    memset(&err, 0, sizeof err);
    err.struct_size = sizeof err;
    return err;
}

static const void *table(const shelf_plugin_descriptor *plugin, const char *id)
{
    return plugin->get_extension ? plugin->get_extension(id) : NULL;
}

static void *handle(const shelf_message *m, uint32_t index)
{
    return (void *)(intptr_t)shelf_message_int(m, index);
}

/* [path, uri, media type, head, file size] starting at field `first`. */
static shelf_input input_of(const shelf_message *m, uint32_t first)
{
    shelf_input input;
    memset(&input, 0, sizeof input);
    input.struct_size = sizeof input;
    input.path = shelf_message_string(m, first);
    input.uri = shelf_message_string(m, first + 1);
    input.media_type = shelf_message_string(m, first + 2);
    input.head = m->length[first + 3] ? m->field[first + 3] : NULL;
    input.head_size = m->length[first + 3];
    input.file_size = (uint64_t)shelf_message_int(m, first + 4);
    return input;
}

static int unsupported(const char *what)
{
    shelf_error err = fresh_error();
    shelf_error_set(&err, SHELF_E_UNSUPPORTED, NULL, "the plugin does not offer %s", what);
    return reply(SHELF_E_UNSUPPORTED, &err, 0, NULL, NULL);
}

static int format_call(const shelf_plugin_descriptor *plugin, const shelf_message *m)
{
    const shelf_format_v1 *format = table(plugin, SHELF_EXT_FORMAT);
    shelf_error err = fresh_error();
    output out = {0};
    shelf_writer w = output_writer(&out);
    shelf_status status;
    if (format == NULL) return unsupported(SHELF_EXT_FORMAT);
    switch (m->op) {
    case SHELF_OP_PROBE: {
        /* The probe that can say why (shelf.probe/1, ABI 1.1) when the plugin offers it; its error goes back. */
        const shelf_probe_v1 *explained = table(plugin, SHELF_EXT_PROBE);
        shelf_input input = input_of(m, 0);
        int32_t confidence = 0;
        if (explained != NULL && explained->struct_size >= sizeof *explained && explained->probe != NULL) {
            status = explained->probe(&input, &confidence, &err);
            return reply_number(status, &err, confidence);
        }
        status = format->probe ? format->probe(&input, &confidence) : SHELF_E_UNSUPPORTED;
        return reply_number(status, NULL, confidence);
    }
    case SHELF_OP_OPEN: {
        shelf_input input = input_of(m, 0);
        shelf_publication *publication = NULL;
        status = format->open ? format->open(&input, shelf_message_string(m, 5), &publication, &err) : SHELF_E_UNSUPPORTED;
        return reply_number(status, &err, (int64_t)(intptr_t)publication);
    }
    case SHELF_OP_MANIFEST:
        status = format->manifest ? format->manifest(handle(m, 0), &w, &err) : SHELF_E_UNSUPPORTED;
        return reply_output(status, &err, &out);
    case SHELF_OP_RESOURCE:
        status = format->resource ? format->resource(handle(m, 0), shelf_message_string(m, 1), &w, &err) : SHELF_E_UNSUPPORTED;
        return reply_output(status, &err, &out);
    default: /* SHELF_OP_CLOSE */
        if (format->close) format->close(handle(m, 0));
        return reply(SHELF_OK, NULL, 0, NULL, NULL);
    }
}

static int publication_call(const shelf_plugin_descriptor *plugin, const shelf_message *m)
{
    shelf_error err = fresh_error();
    output out = {0}, where = {0};
    shelf_writer w = output_writer(&out), v = output_writer(&where);
    shelf_status status;
    if (m->op == SHELF_OP_RENDER) {
        const shelf_render_v1 *render = table(plugin, SHELF_EXT_RENDER);
        const void *fields[2];
        uint32_t lengths[2];
        int sent;
        if (render == NULL) return unsupported(SHELF_EXT_RENDER);
        status = render->render(handle(m, 0), shelf_message_string(m, 1), shelf_message_string(m, 2), &w, &v, &err);
        status = overflow(status, &err, &out, &where);
        fields[0] = out.data ? (const void *)out.data : ""; lengths[0] = status == SHELF_OK ? (uint32_t)out.size : 0;
        fields[1] = where.data ? (const void *)where.data : ""; lengths[1] = status == SHELF_OK ? (uint32_t)where.size : 0;
        sent = reply(status, &err, 2, fields, lengths);
        output_free(&out);
        output_free(&where);
        return sent;
    }
    if (m->op == SHELF_OP_SEARCH) {
        const shelf_search_v1 *search = table(plugin, SHELF_EXT_SEARCH);
        if (search == NULL) return unsupported(SHELF_EXT_SEARCH);
        status = search->search(handle(m, 0), shelf_message_string(m, 1), &w, &err);
        return reply_output(status, &err, &out);
    }
    {
        const shelf_positions_v1 *positions = table(plugin, SHELF_EXT_POSITIONS);
        if (positions == NULL) return unsupported(SHELF_EXT_POSITIONS);
        status = m->op == SHELF_OP_POSITIONS ? positions->positions(handle(m, 0), &w, &err)
                                             : positions->locate(handle(m, 0), shelf_message_string(m, 1), &w, &err);
        return reply_output(status, &err, &out);
    }
}

static int audio_call(const shelf_plugin_descriptor *plugin, const shelf_message *m)
{
    const shelf_audio_v1 *audio = table(plugin, SHELF_EXT_AUDIO);
    shelf_error err = fresh_error();
    shelf_status status;
    if (audio == NULL) return unsupported(SHELF_EXT_AUDIO);
    switch (m->op) {
    case SHELF_OP_AUDIO_OPEN: {
        /* [publication, href, options, format] -> [decoder, format] */
        shelf_audio_format format;
        shelf_audio_decoder *decoder = NULL;
        int64_t number;
        const void *fields[2];
        uint32_t lengths[2];
        memset(&format, 0, sizeof format);
        memcpy(&format, m->field[3], m->length[3] < sizeof format ? m->length[3] : sizeof format);
        format.struct_size = sizeof format;
        status = audio->open_decoder(handle(m, 0), shelf_message_string(m, 1), shelf_message_string(m, 2), &format, &decoder, &err);
        number = (int64_t)(intptr_t)decoder;
        fields[0] = &number; lengths[0] = sizeof number;
        fields[1] = &format; lengths[1] = sizeof format;
        return reply(status, &err, 2, fields, lengths);
    }
    case SHELF_OP_AUDIO_SEEK:
        status = audio->seek(handle(m, 0), shelf_message_int(m, 1), &err);
        return reply(status, &err, 0, NULL, NULL);
    case SHELF_OP_AUDIO_READ: {
        /* [decoder, capacity, channels] -> [frames read, samples] */
        size_t capacity = (size_t)shelf_message_int(m, 1), channels = (size_t)shelf_message_int(m, 2), got = 0;
        float *samples;
        int64_t frames;
        const void *fields[2];
        uint32_t lengths[2];
        int sent;
        if (capacity == 0 || channels == 0 || channels > 16 || capacity > ((size_t)1 << 22)) {
            shelf_error_set(&err, SHELF_E_INVALID_ARGUMENT, NULL, "a read of %zu frames of %zu channels", capacity, channels);
            return reply(SHELF_E_INVALID_ARGUMENT, &err, 0, NULL, NULL);
        }
        samples = calloc(capacity * channels, sizeof(float));
        if (samples == NULL) return reply(SHELF_E_NO_MEMORY, &err, 0, NULL, NULL);
        status = audio->read(handle(m, 0), samples, capacity, &got, &err);
        if (got > capacity) got = capacity;
        frames = (int64_t)got;
        fields[0] = &frames; lengths[0] = sizeof frames;
        fields[1] = samples; lengths[1] = status == SHELF_OK ? (uint32_t)(got * channels * sizeof(float)) : 0;
        sent = reply(status, &err, 2, fields, lengths);
        free(samples);
        return sent;
    }
    default: /* SHELF_OP_AUDIO_CLOSE */
        audio->close_decoder(handle(m, 0));
        return reply(SHELF_OK, NULL, 0, NULL, NULL);
    }
}

static int readinglist_call(const shelf_plugin_descriptor *plugin, const shelf_message *m)
{
    const shelf_readinglist_v1 *list = table(plugin, SHELF_EXT_READINGLIST);
    shelf_error err = fresh_error();
    output out = {0};
    shelf_writer w = output_writer(&out);
    shelf_status status;
    if (list == NULL) return unsupported(SHELF_EXT_READINGLIST);
    switch (m->op) {
    case SHELF_OP_LIST_DESCRIBE:
        status = list->describe(shelf_message_string(m, 0), &w, &err);
        return reply_output(status, &err, &out);
    case SHELF_OP_LIST_CONNECT: {
        shelf_connection *connection = NULL;
        status = list->connect(shelf_message_string(m, 0), shelf_message_string(m, 1), &connection, &err);
        return reply_number(status, &err, (int64_t)(intptr_t)connection);
    }
    case SHELF_OP_LIST_PULL:
        status = list->pull(handle(m, 0), shelf_message_string(m, 1), &w, &err);
        return reply_output(status, &err, &out);
    case SHELF_OP_LIST_PUSH:
        status = list->push(handle(m, 0), shelf_message_string(m, 1), &w, &err);
        return reply_output(status, &err, &out);
    case SHELF_OP_LIST_AUTHORIZE_BEGIN:
        status = list->authorize_begin(handle(m, 0), shelf_message_string(m, 1), &w, &err);
        return reply_output(status, &err, &out);
    case SHELF_OP_LIST_AUTHORIZE_COMPLETE:
        status = list->authorize_complete(handle(m, 0), shelf_message_string(m, 1), &err);
        return reply(status, &err, 0, NULL, NULL);
    default: /* SHELF_OP_LIST_DISCONNECT */
        list->disconnect(handle(m, 0));
        return reply(SHELF_OK, NULL, 0, NULL, NULL);
    }
}

int answer_call(const shelf_plugin_descriptor *plugin, const shelf_message *m)
{
    host_services_new_call();
    answering = plugin;
    if (m->op == SHELF_OP_INIT) {
        shelf_error err = fresh_error();
        const shelf_host *host = host_services(shelf_message_string(m, 0), shelf_message_string(m, 1), shelf_message_string(m, 2));
        shelf_status status = plugin->init ? plugin->init(host, &err) : SHELF_OK;
        return reply(status, &err, 0, NULL, NULL);
    }
    if (m->op >= SHELF_OP_PROBE && m->op <= SHELF_OP_CLOSE) return format_call(plugin, m);
    if (m->op >= SHELF_OP_RENDER && m->op <= SHELF_OP_SEARCH) return publication_call(plugin, m);
    if (m->op >= SHELF_OP_AUDIO_OPEN && m->op <= SHELF_OP_AUDIO_CLOSE) return audio_call(plugin, m);
    if (m->op >= SHELF_OP_LIST_DESCRIBE && m->op <= SHELF_OP_LIST_DISCONNECT) return readinglist_call(plugin, m);
    return unsupported("this call");
}
