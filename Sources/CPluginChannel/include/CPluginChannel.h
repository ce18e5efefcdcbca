#ifndef SHELF_CPLUGINCHANNEL_H
#define SHELF_CPLUGINCHANNEL_H
/*
 * The wire between shelf and an out-of-process plugin (shelf-plugin-sandbox): one stream socket of a socketpair,
 * carrying messages. Both sides use this one implementation of the framing.
 *
 * A message is a header of four uint32 in native byte order (both ends are on one machine): the length of what
 * follows the header, the operation, the number of fields and a bitmask of fields that are NULL (a C string the ABI
 * allows to be NULL). Then each field as a uint32 length and its bytes. A call is a request from shelf answered by
 * one SHELF_OP_REPLY; while it runs, the child may send log and progress lines (no answer) and ask for host
 * services (answered by shelf on the same socket before the reply comes), and shelf may send SHELF_OP_CANCEL.
 */
#include <stddef.h>
#include <stdint.h>

#define SHELF_CHANNEL_MAX_FIELDS 16
/* A message larger than this is refused: resources are capped far lower by the host's own output limits. */
#define SHELF_CHANNEL_MAX_MESSAGE ((uint32_t)1 << 30)
/* The child's end of the socketpair. */
#define SHELF_CHANNEL_CHILD_FD 3

enum shelf_channel_op {
    SHELF_OP_REPLY = 1,
    /* shelf -> child: the calls (fields as documented at each in PluginSandbox/calls.c). */
    SHELF_OP_LOAD = 10, SHELF_OP_INIT,
    SHELF_OP_PROBE = 20, SHELF_OP_OPEN, SHELF_OP_MANIFEST, SHELF_OP_RESOURCE, SHELF_OP_CLOSE,
    SHELF_OP_RENDER, SHELF_OP_POSITIONS, SHELF_OP_LOCATE, SHELF_OP_SEARCH,
    SHELF_OP_AUDIO_OPEN = 40, SHELF_OP_AUDIO_SEEK, SHELF_OP_AUDIO_READ, SHELF_OP_AUDIO_CLOSE,
    SHELF_OP_LIST_DESCRIBE = 50, SHELF_OP_LIST_CONNECT, SHELF_OP_LIST_PULL, SHELF_OP_LIST_PUSH,
    SHELF_OP_LIST_AUTHORIZE_BEGIN, SHELF_OP_LIST_AUTHORIZE_COMPLETE, SHELF_OP_LIST_DISCONNECT,
    /* shelf -> child, during a call. */
    SHELF_OP_CANCEL = 70,
    /* child -> shelf, during a call: log and progress go unanswered, the services are answered. */
    SHELF_OP_LOG = 80, SHELF_OP_PROGRESS, SHELF_OP_HTTP, SHELF_OP_CREDENTIAL_GET, SHELF_OP_CREDENTIAL_SET,
    SHELF_OP_CREDENTIAL_REMOVE,
    /* [book path, relative path] -> [status, message, location]; on SHELF_OK a descriptor follows the reply
     * (shelf_channel_send_fd), the companion file opened by shelf (files.h). */
    SHELF_OP_COMPANION
};

typedef struct shelf_message {
    uint32_t op;
    uint32_t count;
    uint32_t nulls;
    uint8_t *buffer;                       /* owns every field's bytes; each field is followed by a NUL */
    const uint8_t *field[SHELF_CHANNEL_MAX_FIELDS];
    uint32_t length[SHELF_CHANNEL_MAX_FIELDS];
} shelf_message;

/* Sends one message; a NULL field pointer is sent as NULL. Returns 0, or -1 when the other end is gone. */
int shelf_channel_send(int fd, uint32_t op, uint32_t count, const void *const *fields, const uint32_t *lengths);

/* Blocks for one whole message. Returns 0, or -1 when the other end closed or broke the framing. */
int shelf_channel_receive(int fd, shelf_message *message);

/* Whether a message is waiting: 1 yes, 0 not within timeout_ms (0: do not wait), -1 the socket failed. */
int shelf_channel_wait(int fd, int timeout_ms);

void shelf_message_free(shelf_message *message);

/* Passes descriptor `passed` over the channel (one byte carrying it, SCM_RIGHTS); the other end takes it with
 * shelf_channel_receive_fd, right after the message it follows. Returns 0, or -1. */
int shelf_channel_send_fd(int fd, int passed);
/* The descriptor the other end passed (close-on-exec), or -1. */
int shelf_channel_receive_fd(int fd);

/* A field as a C string (NULL when sent as NULL; the bytes are always NUL-terminated). */
const char *shelf_message_string(const shelf_message *message, uint32_t index);
/* A field of 8 bytes as an integer (0 when absent or of another size). */
int64_t shelf_message_int(const shelf_message *message, uint32_t index);

/* The out-of-process plugin the calling thread is calling into (shelf's side; see RemotePlugin.swift). */
void *shelf_channel_current(void);
void shelf_channel_set_current(void *plugin);

#endif
