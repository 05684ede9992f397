/* SHA-256 (FIPS 180-4): the digest of "sha256" payloads, so a large expected
   output costs 64 characters in a case file. OpenSSL's libcrypto computes it:
   it uses the CPU's SHA extensions where there are some, several times the
   speed of portable C on the large tier's outputs. */
#include "cases/cases.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

void mc_sha256(const void *data, size_t len, uint8_t digest[32]) {
  unsigned int digest_len = 0;
  /* EVP_Digest fails only when libcrypto cannot allocate its context. */
  if (EVP_Digest(data, len, digest, &digest_len, EVP_sha256(), NULL) != 1 || digest_len != 32) {
    fputs("movconf: libcrypto could not compute a SHA-256 (out of memory?)\n", stderr);
    abort();
  }
}
