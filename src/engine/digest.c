/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --hash through libcrypto's EVP interface (OpenSSL 1.1 and 3, LibreSSL):
 * no digest is written by hand.  A mutex lets SIGUSR1's report read a
 * digest so far (a copy of its context, finished) while the stream's
 * thread updates it.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "tach/digest.h"

struct digest_alg {
	char		 name[32];
	char		*expected;	/* ALG:HEX's HEX, or NULL */
	const EVP_MD	*md;
	EVP_MD_CTX	*ctx;
	char		 hex[DIGEST_HEX_MAX];	/* once ended */
};

struct digest {
	pthread_mutex_t	 lock;
	bool		 ended;
	size_t		 n;
	struct digest_alg alg[DIGEST_MAX];
};

/* A hex string of the digest's length: true, or the reason in msg. */
static bool
expected_ok(const char *name, const char *hex, const EVP_MD *md, char *msg,
    size_t msglen)
{
	size_t len = strlen(hex), want = 2 * (size_t)EVP_MD_size(md);

	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)hex[i])) {
			snprintf(msg, msglen, "--hash %s: the digest to match "
			    "is not hexadecimal", name);
			return false;
		}
	if (len != want) {
		snprintf(msg, msglen, "--hash %s: the digest to match has "
		    "%zu hex digits, not %zu", name, len, want);
		return false;
	}
	return true;
}

/* One ALG or ALG:HEX of the spec, of len bytes: true, or msg says why. */
static bool
add_alg(struct digest *d, const char *item, size_t len, char *msg,
    size_t msglen)
{
	struct digest_alg *a = &d->alg[d->n];
	const char *colon = memchr(item, ':', len);
	size_t namelen = colon != NULL ? (size_t)(colon - item) : len;

	if (d->n == DIGEST_MAX) {
		snprintf(msg, msglen, "--hash: at most %d algorithms",
		    DIGEST_MAX);
		return false;
	}
	if (namelen == 0 || namelen >= sizeof(a->name)) {
		snprintf(msg, msglen, "--hash: an algorithm's name is missing "
		    "or too long");
		return false;
	}
	memcpy(a->name, item, namelen);
	a->name[namelen] = '\0';
	for (char *p = a->name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	/* b2sum's name for what libcrypto calls blake2b512 */
	if ((a->md = EVP_get_digestbyname(strcmp(a->name, "blake2b") == 0 ?
	    "blake2b512" : a->name)) == NULL) {
		snprintf(msg, msglen, "--hash %s: not an algorithm this "
		    "crypto library has (sha256, sha512, sha1, md5, blake2b)",
		    a->name);
		return false;
	}
	if (colon != NULL && ((a->expected = strndup(colon + 1,
	    len - namelen - 1)) == NULL || !expected_ok(a->name, a->expected,
	    a->md, msg, msglen))) {
		free(a->expected);
		a->expected = NULL;
		return false;
	}
	if ((a->ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(a->ctx, a->md, NULL) != 1) {
		snprintf(msg, msglen, "--hash %s: the crypto library could "
		    "not start it", a->name);
		free(a->expected);
		EVP_MD_CTX_free(a->ctx);
		return false;
	}
	d->n++;
	return true;
}

struct digest *
digest_new(const char *spec, char *msg, size_t msglen)
{
	struct digest *d;
	const char *p = spec, *comma;

	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    pthread_mutex_init(&d->lock, NULL) != 0) {
		snprintf(msg, msglen, "--hash: out of memory");
		free(d);
		return NULL;
	}
	for (;;) {
		comma = strchr(p, ',');
		if (!add_alg(d, p, comma != NULL ? (size_t)(comma - p) :
		    strlen(p), msg, msglen)) {
			digest_free(d);
			return NULL;
		}
		if (comma == NULL)
			return d;
		p = comma + 1;
	}
}

void
digest_update(struct digest *d, const void *data, size_t len)
{
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->n; i++)
		(void)EVP_DigestUpdate(d->alg[i].ctx, data, len);
	pthread_mutex_unlock(&d->lock);
}

size_t
digest_count(const struct digest *d)
{
	return d->n;
}

/* ctx's digest so far, finished in a copy, as hex. */
static void
finish_copy(const EVP_MD_CTX *ctx, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_MD_CTX *copy;

	hex[0] = '\0';
	if ((copy = EVP_MD_CTX_new()) == NULL)
		return;
	if (EVP_MD_CTX_copy_ex(copy, ctx) == 1 &&
	    EVP_DigestFinal_ex(copy, md, &len) == 1)
		for (unsigned int i = 0; i < len; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
	EVP_MD_CTX_free(copy);
}

const char *
digest_hex(struct digest *d, size_t i, char *hex)
{
	pthread_mutex_lock(&d->lock);
	if (d->ended)
		memcpy(hex, d->alg[i].hex, DIGEST_HEX_MAX);
	else
		finish_copy(d->alg[i].ctx, hex);
	pthread_mutex_unlock(&d->lock);
	return d->alg[i].name;
}

void
digest_end(struct digest *d)
{
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->n && !d->ended; i++)
		finish_copy(d->alg[i].ctx, d->alg[i].hex);
	d->ended = true;
	pthread_mutex_unlock(&d->lock);
}

const char *
digest_expected(const struct digest *d, size_t i)
{
	return d->alg[i].expected;
}

void
digest_free(struct digest *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->n; i++) {
		EVP_MD_CTX_free(d->alg[i].ctx);
		free(d->alg[i].expected);
	}
	pthread_mutex_destroy(&d->lock);
	free(d);
}
