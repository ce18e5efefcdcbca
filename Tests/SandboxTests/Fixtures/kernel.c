/* Test fixture for SandboxTests: what this kernel offers the confinement, asked of the kernel itself (not of the
 * sandbox), so that a test of an attack the kernel cannot show is skipped with the reason, never passed.
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* The Landlock ABI version (0: none, or disabled at boot). */
EXPORT int shelf_test_landlock_abi(void)
{
    long abi = syscall(444 /* landlock_create_ruleset */, NULL, 0, 1UL /* LANDLOCK_CREATE_RULESET_VERSION */);
    return abi > 0 ? (int)abi : 0;
}

/* 1 when a process may set up an io_uring (not disabled by sysctl, by a container's filter or by the kernel). */
EXPORT int shelf_test_io_uring(void)
{
    struct io_uring_params p;
    int fd;
    memset(&p, 0, sizeof p);
    fd = (int)syscall(__NR_io_uring_setup, 2, &p);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}
