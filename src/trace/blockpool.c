// SPDX-License-Identifier: GPL-2.0-only
/*
 * blockpool: memory for the per-CPU streams' blocks.  With hundreds of
 * CPUs the blocks take tens of megabytes, touched in turn by the merge:
 * from malloc() that is a page fault per 4 KiB and a TLB miss on most
 * visits.  Blocks are carved from regions backed by huge pages where the
 * kernel offers them; a block given back is kept for the next one that
 * fits.  Regions are unmapped only when the pool is freed.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "schedplot/base/alloc.h"
#include "schedplot/trace/blockpool.h"

#define POOL_REGION	(32ul << 20)
#define POOL_ALIGN	(2ul << 20)	/* a huge page */

struct pool_piece {
	struct pool_piece *next;
	size_t size;
};

/* A region, as mapped. */
struct pool_map {
	char *addr;
	size_t size;
};

struct sp_block_pool {
	pthread_mutex_t lock;
	struct pool_map *maps;
	size_t nr_maps;
	size_t alloc_maps;
	char *next;			/* free room in the newest region */
	size_t room;
	struct pool_piece *spare;	/* blocks given back */
};

/* A new region of at least @size bytes, aligned to a huge page. */
static char *pool_map(struct sp_block_pool *bp, size_t size)
{
	size_t map_size = size + POOL_ALIGN;
	char *m;

	if (sp_grow_array(&bp->maps, &bp->alloc_maps, bp->nr_maps + 1, sizeof(*bp->maps)))
		return NULL;
	m = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	bp->maps[bp->nr_maps++] = (struct pool_map){ m, map_size };
	m = (char *)(((uintptr_t)m + POOL_ALIGN - 1) & ~(POOL_ALIGN - 1));
#ifdef MADV_HUGEPAGE
	madvise(m, size, MADV_HUGEPAGE);	/* a hint: without it, small pages */
#endif
	return m;
}

void *sp_block_pool_get(struct sp_block_pool *bp, size_t size, size_t *got)
{
	struct pool_piece **pp, *piece;
	void *p = NULL;

	pthread_mutex_lock(&bp->lock);
	for (pp = &bp->spare; *pp; pp = &(*pp)->next) {
		if ((*pp)->size >= size) {
			piece = *pp;
			*pp = piece->next;
			*got = piece->size;
			p = piece;
			goto out;
		}
	}
	if (size > bp->room) {
		size_t region = size > POOL_REGION / 4 ? size : POOL_REGION;
		char *m = pool_map(bp, region);

		if (!m)
			goto out;
		bp->next = m;
		bp->room = region;
	}
	p = bp->next;
	*got = size;
	bp->next += size;
	bp->room -= size;
out:
	pthread_mutex_unlock(&bp->lock);
	return p;
}

void sp_block_pool_put(struct sp_block_pool *bp, void *p, size_t size)
{
	struct pool_piece *piece = p;

	if (!p)
		return;
	pthread_mutex_lock(&bp->lock);
	piece->size = size;
	piece->next = bp->spare;
	bp->spare = piece;
	pthread_mutex_unlock(&bp->lock);
}

struct sp_block_pool *sp_block_pool_alloc(void)
{
	struct sp_block_pool *bp = calloc(1, sizeof(*bp));

	if (bp)
		pthread_mutex_init(&bp->lock, NULL);
	return bp;
}

void sp_block_pool_free(struct sp_block_pool *bp)
{
	if (!bp)
		return;
	for (size_t i = 0; i < bp->nr_maps; i++)
		munmap(bp->maps[i].addr, bp->maps[i].size);
	pthread_mutex_destroy(&bp->lock);
	free(bp->maps);
	free(bp);
}
