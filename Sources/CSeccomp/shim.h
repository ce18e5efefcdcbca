/* libseccomp (Debian libseccomp-dev): the filter that refuses socket() to out-of-process plugins. */
#include <seccomp.h>
