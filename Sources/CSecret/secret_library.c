#include "CSecret.h"

#include "CLazyLibrary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libsecret's public types, declared here as its headers do (libsecret/secret-schema.h, glib's GError): the
 * layout is its stable ABI, and building against them needs no GLib development headers. */
typedef struct { const char *name; int type; } SecretSchemaAttribute;
typedef struct {
    const char *name;
    int flags;
    SecretSchemaAttribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} SecretSchema;
typedef struct { unsigned int domain; int code; char *message; } GError;

enum { SECRET_SCHEMA_NONE = 0, SECRET_SCHEMA_ATTRIBUTE_STRING = 0 };

static const SecretSchema schema = {
    "org.shelf.Credential", SECRET_SCHEMA_NONE,
    { { "home", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "account", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "field", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static struct {
    int (*store_sync)(const SecretSchema *, const char *, const char *, const char *, void *, GError **, ...);
    char *(*lookup_sync)(const SecretSchema *, void *, GError **, ...);
    int (*clear_sync)(const SecretSchema *, void *, GError **, ...);
    void (*password_free)(char *);
    void (*error_free)(GError *);
} secret;

static const struct shelf_lazy_symbol symbols[] = {
    { (void **)&secret.store_sync, "secret_password_store_sync" },
    { (void **)&secret.lookup_sync, "secret_password_lookup_sync" },
    { (void **)&secret.clear_sync, "secret_password_clear_sync" },
    { (void **)&secret.password_free, "secret_password_free" },
    { (void **)&secret.error_free, "g_error_free" },  /* GLib, which comes with libsecret */
};

/* Debian's libsecret-1-0. */
static struct shelf_lazy_library library = {
    .sonames = { "libsecret-1.so.0" }, .what = "libsecret", .needs = "libsecret", .package = "libsecret-1-0",
    .symbols = symbols, .symbol_count = sizeof symbols / sizeof *symbols, .lock = PTHREAD_MUTEX_INITIALIZER,
};

const char *shelf_secret_load(void) { return shelf_lazy_load(&library); }

static void take_error(GError *error, char *buffer, size_t size) {
    if (buffer && size > 0) {
        snprintf(buffer, size, "%s", error && error->message ? error->message : "the Secret Service refused");
    }
    if (error) secret.error_free(error);
}

int shelf_secret_store(const char *label, const char *home, const char *account, const char *field,
                       const char *value, char *error, size_t error_size) {
    if (shelf_secret_load()) { snprintf(error, error_size, "%s", library.failure); return -1; }
    GError *problem = NULL;
    int stored = secret.store_sync(&schema, "default", label, value, NULL, &problem,
                                   "home", home, "account", account, "field", field, NULL);
    if (!stored || problem) { take_error(problem, error, error_size); return -1; }
    return 0;
}

char *shelf_secret_lookup(const char *home, const char *account, const char *field, int *found,
                          char *error, size_t error_size) {
    *found = -1;
    if (shelf_secret_load()) { snprintf(error, error_size, "%s", library.failure); return NULL; }
    GError *problem = NULL;
    char *value = secret.lookup_sync(&schema, NULL, &problem, "home", home, "account", account, "field", field, NULL);
    if (problem) { take_error(problem, error, error_size); return NULL; }
    if (!value) { *found = 0; return NULL; }
    /* A copy of shelf's own, so that libsecret's is wiped and freed at once by its own function. */
    char *copy = strdup(value);
    secret.password_free(value);
    *found = copy ? 1 : -1;
    return copy;
}

int shelf_secret_clear(const char *home, const char *account, const char *field, char *error, size_t error_size) {
    if (shelf_secret_load()) { snprintf(error, error_size, "%s", library.failure); return -1; }
    GError *problem = NULL;
    secret.clear_sync(&schema, NULL, &problem, "home", home, "account", account, "field", field, NULL);
    if (problem) { take_error(problem, error, error_size); return -1; }
    return 0;
}

void shelf_secret_free(char *value) {
    if (!value) return;
    volatile char *p = value;
    while (*p) *p++ = 0;
    free(value);
}
