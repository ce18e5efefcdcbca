/* Confinement of the plugin's process, before the plugin is loaded (its constructors run confined too):
 *   - Landlock at the best ABI the kernel offers: read and execute only beneath the read roots (the plugin's
 *     folder, the system's and the Swift runtime's libraries, the input's folder), write only beneath the write
 *     roots (the plugin's own data and cache folders). From ABI 4 no TCP bind or connect, from ABI 6 no signals to
 *     processes outside the sandbox and no abstract unix sockets. Raw system calls: glibc has no wrappers.
 *   - seccomp (libseccomp), by allowlist (`allowed_calls`): every other system call fails with EPERM, among them
 *     socket, socketpair, io_uring, fork and exec; a connector reaches the network only through the host's HTTP
 *     service.
 *   - a memory limit (RLIMIT_AS), and no core files.
 * Both need no_new_privs, set here, so no setuid program can be used to step outside. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

/* The system calls a plugin may make: what the loader, the C library, the Swift runtime and a decoder need to
 * read files, compute, make threads and wait. Anything else fails with EPERM: no socket, socketpair, connect or
 * bind (the network is the host's HTTP service), no io_uring (whose requests no filter sees), no fork, vfork, exec,
 * ptrace or namespaces (nothing outlives the child or steps outside it), no signal to another process. Calls on
 * descriptors the child already has (the channel: send, recv) stay allowed. */
static const int allowed_calls[] = {
    SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64), SCMP_SYS(pwrite64),
    SCMP_SYS(preadv), SCMP_SYS(pwritev), SCMP_SYS(preadv2), SCMP_SYS(pwritev2), SCMP_SYS(lseek), SCMP_SYS(close),
    SCMP_SYS(close_range), SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(fcntl), SCMP_SYS(flock),
    SCMP_SYS(fsync), SCMP_SYS(fdatasync), SCMP_SYS(ftruncate), SCMP_SYS(truncate), SCMP_SYS(fallocate),
    SCMP_SYS(fadvise64), SCMP_SYS(readahead), SCMP_SYS(sendfile), SCMP_SYS(copy_file_range),
    SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2), SCMP_SYS(creat), SCMP_SYS(stat), SCMP_SYS(fstat),
    SCMP_SYS(lstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(statfs), SCMP_SYS(fstatfs), SCMP_SYS(access),
    SCMP_SYS(faccessat), SCMP_SYS(faccessat2), SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getdents64),
    SCMP_SYS(getcwd), SCMP_SYS(chdir), SCMP_SYS(fchdir), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir),
    SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2),
    SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chmod), SCMP_SYS(utimensat), SCMP_SYS(umask),
    SCMP_SYS(getxattr), SCMP_SYS(lgetxattr), SCMP_SYS(fgetxattr), SCMP_SYS(pipe), SCMP_SYS(pipe2),
    SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mprotect), SCMP_SYS(mremap), SCMP_SYS(madvise), SCMP_SYS(brk),
    SCMP_SYS(msync), SCMP_SYS(mincore), SCMP_SYS(membarrier), SCMP_SYS(memfd_create),
    SCMP_SYS(futex), SCMP_SYS(futex_waitv), SCMP_SYS(set_robust_list), SCMP_SYS(get_robust_list), SCMP_SYS(rseq),
    SCMP_SYS(set_tid_address), SCMP_SYS(arch_prctl), SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(restart_syscall),
    SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigtimedwait),
    SCMP_SYS(rt_sigpending), SCMP_SYS(rt_sigsuspend), SCMP_SYS(sigaltstack),
    SCMP_SYS(getpid), SCMP_SYS(getppid), SCMP_SYS(gettid), SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid),
    SCMP_SYS(getegid), SCMP_SYS(getresuid), SCMP_SYS(getresgid), SCMP_SYS(getgroups), SCMP_SYS(getpgrp),
    SCMP_SYS(getpgid), SCMP_SYS(getsid), SCMP_SYS(getpriority), SCMP_SYS(capget), SCMP_SYS(uname), SCMP_SYS(sysinfo),
    SCMP_SYS(getrusage), SCMP_SYS(times), SCMP_SYS(getcpu), SCMP_SYS(getrandom),
    SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(sched_getparam), SCMP_SYS(sched_getscheduler),
    SCMP_SYS(sched_get_priority_max), SCMP_SYS(sched_get_priority_min),
    SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
    SCMP_SYS(gettimeofday), SCMP_SYS(time), SCMP_SYS(getitimer), SCMP_SYS(setitimer), SCMP_SYS(alarm),
    SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(select), SCMP_SYS(pselect6), SCMP_SYS(epoll_create),
    SCMP_SYS(epoll_create1), SCMP_SYS(epoll_ctl), SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait), SCMP_SYS(epoll_pwait2),
    SCMP_SYS(eventfd), SCMP_SYS(eventfd2), SCMP_SYS(timerfd_create), SCMP_SYS(timerfd_settime),
    SCMP_SYS(timerfd_gettime), SCMP_SYS(signalfd4),
    /* The channel, a socket the child was given: used, never made. */
    SCMP_SYS(sendto), SCMP_SYS(recvfrom), SCMP_SYS(sendmsg), SCMP_SYS(recvmsg), SCMP_SYS(shutdown),
    SCMP_SYS(getsockopt), SCMP_SYS(getsockname), SCMP_SYS(getpeername),
    /* Only ever narrower: a plugin may confine itself further. */
    SCMP_SYS(seccomp), SCMP_SYS(landlock_create_ruleset), SCMP_SYS(landlock_add_rule), SCMP_SYS(landlock_restrict_self),
};

/* prctl options a library uses on itself (thread names, named mappings, reading its own state). */
static const long allowed_prctl[] = { PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_CAPBSET_READ, PR_GET_NO_NEW_PRIVS,
                                      0x53564d41 /* PR_SET_VMA */ };
/* ioctl requests of a file descriptor on itself: is it a terminal, how much is waiting, blocking, close-on-exec. */
static const unsigned long allowed_ioctl[] = { TCGETS, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX };

static int allow_calls(char *report, size_t size)
{
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    pid_t self = getpid();
    size_t i;
    int rc = 0;
    if (filter == NULL) { snprintf(report, size, "seccomp_init failed"); return -1; }
    for (i = 0; rc == 0 && i < sizeof allowed_calls / sizeof allowed_calls[0]; i++) {
        rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, allowed_calls[i], 0);
    }
    /* Threads, not processes: glibc makes threads with clone3 when it can and with clone otherwise, and clone3's
     * flags lie in memory no filter reads; so clone3 answers "not here" and clone is allowed with CLONE_THREAD. */
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    /* Signals to itself only (abort, raise, a thread of its own). */
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self));
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)self));
    /* Its own limits may be read, or lowered (the hard limits shelf set cannot be raised). */
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_EQ, 0));
    if (rc == 0) rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(getrlimit), 0);
    for (i = 0; rc == 0 && i < sizeof allowed_prctl / sizeof allowed_prctl[0]; i++) {
        rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)allowed_prctl[i]));
    }
    for (i = 0; rc == 0 && i < sizeof allowed_ioctl / sizeof allowed_ioctl[0]; i++) {
        rc = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL, allowed_ioctl[i]));
    }
    if (rc == 0) rc = seccomp_load(filter);
    seccomp_release(filter);
    if (rc != 0) { snprintf(report, size, "the seccomp filter could not be loaded (%s)", strerror(-rc)); return -1; }
    return 0;
}

/* The memory limit: the address space a plugin may map, in bytes (0: none). An allocation past it fails (malloc
 * returns NULL), which a plugin can answer as SHELF_E_NO_MEMORY; the machine's memory is never at stake. */
static int limit_memory(uint64_t bytes, char *report, size_t size)
{
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = bytes ? (rlim_t)bytes : RLIM_INFINITY;
    if (bytes && setrlimit(RLIMIT_AS, &limit) != 0) {
        snprintf(report, size, "the memory limit could not be set (%s)", strerror(errno));
        return -1;
    }
    /* No core file of a plugin's memory (it may hold what shelf passed it). */
    limit.rlim_cur = limit.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &limit);
    return 0;
}

int confine(const char *read_roots, const char *write_roots, uint64_t memory, char *report, size_t size)
{
    struct ruleset_attr attr;
    size_t attr_size;
    uint64_t handled;
    int abi, ruleset, i;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(report, size, "no_new_privs could not be set (%s)", strerror(errno));
        return -1;
    }
    if (limit_memory(memory, report, size) != 0) return -1;
    abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        int why = errno;
        if (allow_calls(report, size) != 0) return -1;
        snprintf(report, size, "this kernel has no Landlock (%s): the plugin may read any file shelf may; its system calls are filtered",
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
    if (allow_calls(report, size) != 0) return -1;
    snprintf(report, size, "confined: Landlock ABI %d, system calls filtered", abi);
    return 0;
}
