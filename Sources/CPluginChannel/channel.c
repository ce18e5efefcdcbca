/* The framing of CPluginChannel.h: whole messages over a stream socket, with EINTR and short reads handled. */
#define _GNU_SOURCE
#include "CPluginChannel.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        /* MSG_NOSIGNAL: a dead child is an error to report, not a SIGPIPE that ends shelf. */
        ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t size)
{
    uint8_t *p = data;
    while (size > 0) {
        ssize_t n = read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int shelf_channel_send(int fd, uint32_t op, uint32_t count, const void *const *fields, const uint32_t *lengths)
{
    uint32_t header[4] = { 0, op, count, 0 };
    uint64_t total = 0;
    uint32_t i;
    if (count > SHELF_CHANNEL_MAX_FIELDS) return -1;
    for (i = 0; i < count; i++) {
        if (fields[i] == NULL) header[3] |= (uint32_t)1 << i;
        total += 4 + (fields[i] ? lengths[i] : 0);
    }
    if (total > SHELF_CHANNEL_MAX_MESSAGE) return -1;
    header[0] = (uint32_t)total;
    /* Small messages (every call but resources and PCM) go out in one write. */
    if (total <= 4096) {
        uint8_t packet[16 + 4096], *p = packet + 16;
        memcpy(packet, header, 16);
        for (i = 0; i < count; i++) {
            uint32_t length = fields[i] ? lengths[i] : 0;
            memcpy(p, &length, 4);
            if (length) memcpy(p + 4, fields[i], length);
            p += 4 + length;
        }
        return write_all(fd, packet, (size_t)(p - packet));
    }
    if (write_all(fd, header, sizeof header) != 0) return -1;
    for (i = 0; i < count; i++) {
        uint32_t length = fields[i] ? lengths[i] : 0;
        if (write_all(fd, &length, 4) != 0) return -1;
        if (length && write_all(fd, fields[i], length) != 0) return -1;
    }
    return 0;
}

int shelf_channel_receive(int fd, shelf_message *message)
{
    uint32_t header[4], i, offset = 0, length = 0;
    memset(message, 0, sizeof *message);
    if (read_all(fd, header, sizeof header) != 0) return -1;
    if (header[0] > SHELF_CHANNEL_MAX_MESSAGE || header[2] > SHELF_CHANNEL_MAX_FIELDS) return -1;
    /* One byte more than the payload: each field is terminated in place by overwriting the first byte of the next
     * field's length (read before), and the last by the extra byte; so each reads as a C string, without a copy. */
    message->buffer = malloc((size_t)header[0] + 1);
    if (message->buffer == NULL) return -1;
    if (read_all(fd, message->buffer, header[0]) != 0) { shelf_message_free(message); return -1; }
    message->op = header[1];
    message->count = header[2];
    message->nulls = header[3];
    if (header[2] > 0) {
        if (header[0] < 4) { shelf_message_free(message); return -1; }
        memcpy(&length, message->buffer, 4);
    }
    for (i = 0; i < header[2]; i++) {
        uint32_t next = 0, end;
        offset += 4;
        if (length > header[0] - offset) { shelf_message_free(message); return -1; }
        end = offset + length;
        if (i + 1 < header[2]) {
            if (end + 4 > header[0]) { shelf_message_free(message); return -1; }
            memcpy(&next, message->buffer + end, 4);
        }
        message->buffer[end] = 0;
        message->length[i] = length;
        message->field[i] = (message->nulls & ((uint32_t)1 << i)) ? NULL : message->buffer + offset;
        offset = end;
        length = next;
    }
    return 0;
}

int shelf_channel_wait(int fd, int timeout_ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    for (;;) {
        int n = poll(&p, 1, timeout_ms);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        return n > 0 ? 1 : 0;
    }
}

int shelf_channel_send_fd(int fd, int passed)
{
    char byte = 'F';
    char control[CMSG_SPACE(sizeof(int))];
    struct iovec io = { &byte, 1 };
    struct msghdr header;
    struct cmsghdr *c;
    memset(&header, 0, sizeof header);
    memset(control, 0, sizeof control);
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &passed, sizeof(int));
    for (;;) {
        ssize_t n = sendmsg(fd, &header, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        return n == 1 ? 0 : -1;
    }
}

int shelf_channel_receive_fd(int fd)
{
    char byte;
    char control[CMSG_SPACE(sizeof(int))];
    struct iovec io = { &byte, 1 };
    struct msghdr header;
    struct cmsghdr *c;
    int passed = -1;
    ssize_t n;
    memset(&header, 0, sizeof header);
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    do { n = recvmsg(fd, &header, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n != 1) return -1;
    for (c = CMSG_FIRSTHDR(&header); c; c = CMSG_NXTHDR(&header, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int))) {
            memcpy(&passed, CMSG_DATA(c), sizeof(int));
        }
    }
    return passed;
}

void shelf_message_free(shelf_message *message)
{
    free(message->buffer);
    memset(message, 0, sizeof *message);
}

const char *shelf_message_string(const shelf_message *message, uint32_t index)
{
    return index < message->count ? (const char *)message->field[index] : NULL;
}

int64_t shelf_message_int(const shelf_message *message, uint32_t index)
{
    int64_t value = 0;
    if (index < message->count && message->field[index] != NULL && message->length[index] == sizeof value) {
        memcpy(&value, message->field[index], sizeof value);
    }
    return value;
}

static _Thread_local void *current_plugin;

void *shelf_channel_current(void) { return current_plugin; }
void shelf_channel_set_current(void *plugin) { current_plugin = plugin; }
