/* libsonic ships no pkg-config file; this module map links it by name. */
#include <sonic.h>
