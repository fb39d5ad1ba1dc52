// OpenSSL 3's libcrypto for RS256 signing (Debian: libssl-dev, on the machine image; Homebrew: openssl@3).
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
