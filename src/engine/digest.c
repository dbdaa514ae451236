/*
 * SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026, the tach developers
 *
 * --hash through libcrypto's EVP interface (OpenSSL 1.1 and 3, LibreSSL):
 * no digest is written by hand.  CMake's build loads the library when
 * --hash asks for it, not at every start: the loader maps its megabytes
 * before main runs, and a run without --hash would wait for them (and be
 * killed by a SIGUSR1 sent meanwhile); a build that names no library
 * links it.  A mutex lets SIGUSR1's report read a digest so
 * far (a copy of its context, finished) while the stream's thread updates
 * it.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "config.h"
#include "tach/digest.h"

/* libcrypto's calls, once loaded */
static struct {
	bool		 loaded;
	const EVP_MD	*(*byname)(const char *);
	int		 (*size)(const EVP_MD *);
	EVP_MD_CTX	*(*ctx_new)(void);
	void		 (*ctx_free)(EVP_MD_CTX *);
	int		 (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int		 (*update)(EVP_MD_CTX *, const void *, size_t);
	int		 (*copy)(EVP_MD_CTX *, const EVP_MD_CTX *);
	int		 (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
} crypto;

/* OpenSSL 3 made EVP_MD_size a macro of EVP_MD_get_size */
#if OPENSSL_VERSION_NUMBER >= 0x30000000L && !defined(LIBRESSL_VERSION_NUMBER)
#define MD_SIZE		EVP_MD_get_size
#else
#define MD_SIZE		EVP_MD_size
#endif

#ifdef TACH_CRYPTO_LIBRARY
#define NAME_OF(f)	NAME_OF_(f)
#define NAME_OF_(f)	#f
#define LOAD(f, name)	((crypto.f = (__typeof__(crypto.f))dlsym(lib, name)) \
			    != NULL)

/* libcrypto (TACH_CRYPTO_LIBRARY, as the build found it): true, or msg. */
static bool
crypto_load(char *msg, size_t msglen)
{
	void *lib;

	if (crypto.loaded)
		return true;
	if ((lib = dlopen(TACH_CRYPTO_LIBRARY, RTLD_NOW | RTLD_LOCAL)) ==
	    NULL) {
		snprintf(msg, msglen, "--hash: %s", dlerror());
		return false;
	}
	if (!(LOAD(byname, "EVP_get_digestbyname") &&
	    LOAD(size, NAME_OF(MD_SIZE)) && LOAD(ctx_new, "EVP_MD_CTX_new") &&
	    LOAD(ctx_free, "EVP_MD_CTX_free") &&
	    LOAD(init, "EVP_DigestInit_ex") &&
	    LOAD(update, "EVP_DigestUpdate") &&
	    LOAD(copy, "EVP_MD_CTX_copy_ex") &&
	    LOAD(final, "EVP_DigestFinal_ex"))) {
		snprintf(msg, msglen, "--hash: %s: %s", TACH_CRYPTO_LIBRARY,
		    dlerror());
		dlclose(lib);
		return false;
	}
	crypto.loaded = true;
	return true;
}
#else
/* Linked with libcrypto (contrib/bsd's build): its calls as they are. */
static bool
crypto_load(char *msg, size_t msglen)
{
	(void)msg;
	(void)msglen;
	crypto.byname = EVP_get_digestbyname;
	crypto.size = MD_SIZE;
	crypto.ctx_new = EVP_MD_CTX_new;
	crypto.ctx_free = EVP_MD_CTX_free;
	crypto.init = EVP_DigestInit_ex;
	crypto.update = EVP_DigestUpdate;
	crypto.copy = EVP_MD_CTX_copy_ex;
	crypto.final = EVP_DigestFinal_ex;
	return true;
}
#endif

struct digest_alg {
	char		 name[32];
	char		*expected;	/* ALG:HEX's HEX, or NULL */
	const EVP_MD	*md;
	EVP_MD_CTX	*ctx;
	bool		 failed;	/* the library refused an update */
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
	size_t len = strlen(hex), want = 2 * (size_t)crypto.size(md);

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
	if ((a->md = crypto.byname(strcmp(a->name, "blake2b") == 0 ?
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
	if ((a->ctx = crypto.ctx_new()) == NULL ||
	    crypto.init(a->ctx, a->md, NULL) != 1) {
		snprintf(msg, msglen, "--hash %s: the crypto library could "
		    "not start it", a->name);
		free(a->expected);
		crypto.ctx_free(a->ctx);
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

	if (!crypto_load(msg, msglen))
		return NULL;
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
	/* one refused update, and no digest of it can be the stream's */
	for (size_t i = 0; i < d->n; i++)
		if (crypto.update(d->alg[i].ctx, data, len) != 1)
			d->alg[i].failed = true;
	pthread_mutex_unlock(&d->lock);
}

size_t
digest_count(const struct digest *d)
{
	return d->n;
}

/* a's digest so far, finished in a copy, as hex; "" if there is none. */
static void
finish_copy(const struct digest_alg *a, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_MD_CTX *copy;

	hex[0] = '\0';
	if (a->failed || (copy = crypto.ctx_new()) == NULL)
		return;
	if (crypto.copy(copy, a->ctx) == 1 &&
	    crypto.final(copy, md, &len) == 1)
		for (unsigned int i = 0; i < len; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
	crypto.ctx_free(copy);
}

const char *
digest_hex(struct digest *d, size_t i, char *hex)
{
	pthread_mutex_lock(&d->lock);
	if (d->ended)
		memcpy(hex, d->alg[i].hex, DIGEST_HEX_MAX);
	else
		finish_copy(&d->alg[i], hex);
	pthread_mutex_unlock(&d->lock);
	return d->alg[i].name;
}

void
digest_end(struct digest *d)
{
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->n && !d->ended; i++)
		finish_copy(&d->alg[i], d->alg[i].hex);
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
		crypto.ctx_free(d->alg[i].ctx);
		free(d->alg[i].expected);
	}
	pthread_mutex_destroy(&d->lock);
	free(d);
}
