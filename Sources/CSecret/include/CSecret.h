#ifndef SHELF_CSECRET_H
#define SHELF_CSECRET_H

#include <stddef.h>

/* shelf's use of libsecret (Debian's libsecret-1-0), opened with dlopen on first use so that shelf runs, and keeps
 * credentials in its 0600 file, where libsecret is not installed. Secrets are stored under shelf's own schema,
 * "org.shelf.Credential", with three attributes: home (the config folder, so two shelf homes never share), account
 * and field ("password", "token"). */

/* NULL when libsecret is usable; otherwise why not, in words (a static string). Thread-safe. */
const char *shelf_secret_load(void);

/* Stores `secret` in the default collection. 0 on success; -1 with the Secret Service's words in `error`. */
int shelf_secret_store(const char *label, const char *home, const char *account, const char *field,
                       const char *secret, char *error, size_t error_size);

/* The secret stored for (home, account, field): a copy the caller frees with shelf_secret_free, or NULL with
 * *found = 0 when there is none, or NULL with *found = -1 and `error` filled when the service failed. */
char *shelf_secret_lookup(const char *home, const char *account, const char *field, int *found,
                          char *error, size_t error_size);

/* Removes what is stored for (home, account, field); 0 also when there was nothing. */
int shelf_secret_clear(const char *home, const char *account, const char *field, char *error, size_t error_size);

/* Wipes and frees a secret shelf_secret_lookup returned. */
void shelf_secret_free(char *secret);

#endif
