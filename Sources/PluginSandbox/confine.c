/* Confinement of the plugin's process, before the plugin is loaded (its constructors run confined too):
 *   - Landlock at the best ABI the kernel offers: read and execute only beneath the read roots (the plugin's
 *     folder, the system's and the Swift runtime's libraries, the input's folder), write only beneath the write
 *     roots (the plugin's own data and cache folders). From ABI 4 no TCP bind or connect, from ABI 6 no signals to
 *     processes outside the sandbox and no abstract unix sockets. Raw system calls: glibc has no wrappers.
 *   - seccomp (libseccomp): socket() fails with EACCES, whatever the family; a connector reaches the network
 *     only through the host's HTTP service.
 * Both need no_new_privs, set here, so no setuid program can be used to step outside. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Rights of later ABIs than the build machine's headers may know. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#define ACCESS_NET_BIND_TCP (1ULL << 0)
#define ACCESS_NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; its size tells the kernel which fields exist. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define READ_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* The rights that apply to a file (not a folder): anything else on a file rule is EINVAL. */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE \
                     | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* What every process needs to start a dynamically linked library: besides the read roots shelf names. */
static const char *const system_reads[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/localtime",
    "/proc/self", "/sys/devices/system/cpu", "/dev/urandom", NULL
};
static const char *const system_writes[] = { "/dev/null", NULL };

static uint64_t handled_rights(int abi)
{
    uint64_t rights = (1ULL << 13) - 1;  /* ABI 1: EXECUTE .. MAKE_SYM */
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return rights;
}

/* Allows `rights` beneath `path`; a path that does not exist is skipped (a folder some systems lack). */
static int allow(int ruleset, const char *path, uint64_t rights, uint64_t handled)
{
    struct path_beneath rule;
    struct stat st;
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= FILE_RIGHTS;
    rule.allowed_access = rights & handled;
    rule.parent_fd = fd;
    if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    close(fd);
    return 0;
}

static int allow_list(int ruleset, const char *list, uint64_t rights, uint64_t handled, char *report, size_t size)
{
    char *copy, *line, *rest;
    if (list == NULL) return 0;
    copy = strdup(list);
    for (line = strtok_r(copy, "\n", &rest); line; line = strtok_r(NULL, "\n", &rest)) {
        if (allow(ruleset, line, rights, handled) != 0) {
            snprintf(report, size, "Landlock refused a rule for %s (%s)", line, strerror(errno));
            free(copy);
            return -1;
        }
    }
    free(copy);
    return 0;
}

static int refuse_sockets(char *report, size_t size)
{
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    int rc;
    if (filter == NULL) { snprintf(report, size, "seccomp_init failed"); return -1; }
    rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 0);
    if (rc == 0) rc = seccomp_load(filter);
    seccomp_release(filter);
    if (rc != 0) { snprintf(report, size, "the seccomp filter could not be loaded (%s)", strerror(-rc)); return -1; }
    return 0;
}

int confine(const char *read_roots, const char *write_roots, char *report, size_t size)
{
    struct ruleset_attr attr;
    size_t attr_size;
    uint64_t handled;
    int abi, ruleset, i;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(report, size, "no_new_privs could not be set (%s)", strerror(errno));
        return -1;
    }
    abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        int why = errno;
        if (refuse_sockets(report, size) != 0) return -1;
        snprintf(report, size, "this kernel has no Landlock (%s): the plugin may read any file shelf may; socket() is refused",
                 why == EOPNOTSUPP ? "disabled at boot" : strerror(why));
        return 1;
    }
    handled = handled_rights(abi);
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = handled;
    attr_size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = ACCESS_NET_BIND_TCP | ACCESS_NET_CONNECT_TCP;
        attr_size = offsetof(struct ruleset_attr, scoped);
    }
    if (abi >= 6) {
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        attr_size = sizeof attr;
    }
    ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) { snprintf(report, size, "Landlock ABI %d refused the ruleset (%s)", abi, strerror(errno)); return -1; }
    for (i = 0; system_reads[i]; i++) {
        if (allow(ruleset, system_reads[i], READ_RIGHTS, handled) != 0) {
            snprintf(report, size, "Landlock refused a rule for %s (%s)", system_reads[i], strerror(errno));
            return -1;
        }
    }
    for (i = 0; system_writes[i]; i++) allow(ruleset, system_writes[i], READ_RIGHTS | LANDLOCK_ACCESS_FS_WRITE_FILE, handled);
    if (allow_list(ruleset, read_roots, READ_RIGHTS, handled, report, size) != 0) return -1;
    if (allow_list(ruleset, write_roots, handled, handled, report, size) != 0) return -1;
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        snprintf(report, size, "Landlock ABI %d could not be applied (%s)", abi, strerror(errno));
        close(ruleset);
        return -1;
    }
    close(ruleset);
    if (refuse_sockets(report, size) != 0) return -1;
    snprintf(report, size, "confined: Landlock ABI %d, socket() refused", abi);
    return 0;
}
