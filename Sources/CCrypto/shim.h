/* OpenSSL libcrypto: HMAC-SHA1 for OAuth 1.0a signatures and SHA-256 for PKCE. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
