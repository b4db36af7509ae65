// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracecmd-compat: a zlib codec for libtracecmd builds without one (see
 * the header), through its compression hook.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include <zlib.h>

#include "schedplot/trace/tracecmd-compat.h"

static int zlib_uncompress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf out_len = out_bytes;

	if (in_bytes < 0 || out_bytes < 0)
		return -1;
	if (uncompress(out, &out_len, in, in_bytes) != Z_OK)
		return -1;
	return (int)out_len;
}

static int zlib_compress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf out_len = out_bytes;

	if (compress2(out, &out_len, in, in_bytes, Z_BEST_COMPRESSION) != Z_OK)
		return -1;
	return (int)out_len;
}

static unsigned int zlib_bound(void *ctx, unsigned int bytes)
{
	return compressBound(bytes);
}

static bool zlib_supported(const char *name, const char *version)
{
	return name && !strcmp(name, "zlib");
}

static void register_zlib(void)
{
	struct tracecmd_compression_proto proto = {
		.weight = 10,
		.name = "zlib",
		.version = zlibVersion(),
		.compress = zlib_compress,
		.uncompress = zlib_uncompress,
		.compress_size = zlib_bound,
		.is_supported = zlib_supported,
	};

	if (!tracecmd_compress_is_supported("zlib", NULL))
		tracecmd_compress_proto_register(&proto);
}

/* Once per process: teach libtracecmd zlib unless it knows it already. */
void sp_tracecmd_register_zlib(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, register_zlib);
}
