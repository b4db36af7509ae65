/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_BLOCKPOOL_H
#define SP_BLOCKPOOL_H

#include <stddef.h>

struct sp_block_pool;

/*
 * Memory for the blocks of the per-CPU streams (cpustream.c): carved from
 * regions backed by huge pages, a block given back kept for the next one
 * that fits.  Safe to use from several threads (one lock).  Under the
 * sanitizers the streams take their blocks from malloc() instead, which
 * keeps the overflow checks.
 */

/**
 * sp_block_pool_alloc - an empty pool
 *
 * Return: the pool, or NULL without memory.
 */
struct sp_block_pool *sp_block_pool_alloc(void);

/**
 * sp_block_pool_free - unmap every region of a pool (NULL is fine)
 * @bp: the pool; none of its blocks may be used any more
 */
void sp_block_pool_free(struct sp_block_pool *bp);

/**
 * sp_block_pool_get - a block of at least @size bytes
 * @bp: the pool
 * @size: bytes wanted, a multiple of 64
 * @got: set to the block's real size (a block given back may be larger)
 *
 * Return: the block, or NULL when no region can be mapped.
 */
void *sp_block_pool_get(struct sp_block_pool *bp, size_t size, size_t *got);

/**
 * sp_block_pool_put - give a block back
 * @bp: the pool it came from
 * @p: the block (NULL is fine)
 * @size: its size, as sp_block_pool_get() set it
 */
void sp_block_pool_put(struct sp_block_pool *bp, void *p, size_t size);

#endif /* SP_BLOCKPOOL_H */
