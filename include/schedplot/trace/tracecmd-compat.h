/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TRACECMD_COMPAT_H
#define SP_TRACECMD_COMPAT_H

/*
 * What schedplot uses of libtracecmd beyond its public header.
 *
 * Not in libtracecmd's public header, but exported by it (1.3): the CPU
 * count of the file and the hook to add a compression codec.  Debian's
 * libtracecmd is built without zlib, so it cannot read the zlib-compressed
 * files trace-cmd builds with zlib write; registering our own zlib codec
 * through this hook lets it read them.  The struct mirrors libtracecmd 1.3:
 * a copy of a library-internal layout, to be checked against every new
 * libtracecmd version.
 */

#include <stdbool.h>

struct tep_record;
struct tracecmd_input;

int tracecmd_cpus(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

struct tracecmd_compression_proto {
	int weight;
	const char *name;
	const char *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

int tracecmd_compress_proto_register(struct tracecmd_compression_proto *proto);
bool tracecmd_compress_is_supported(const char *name, const char *version);

/**
 * sp_tracecmd_register_zlib - teach libtracecmd zlib unless it knows it already
 *
 * Once per process (later calls do nothing, also from other threads at
 * the same time: readers are opened on worker threads).
 */
void sp_tracecmd_register_zlib(void);

#endif /* SP_TRACECMD_COMPAT_H */
