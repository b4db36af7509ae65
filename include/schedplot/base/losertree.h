/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_LOSERTREE_H
#define SP_LOSERTREE_H

/*
 * losertree: the tournament of a k-way merge.  Leaves 0..N-1 (N a power
 * of 2) are the sources; inner node p (1..N-1) keeps the loser of the
 * match played there, and the overall winner is what comes next.  When
 * the winner's key changes, it replays only the matches on its way up,
 * against the losers kept there: log2(N) comparisons.  The owner keeps
 * the keys and replays on its own hot path; what it shares is the first
 * tournament.
 */
#include <stdbool.h>

/**
 * sp_losertree_build - play every match of a tournament
 * @losers: the inner nodes, @nr_leaves of them (node 0 unused here)
 * @nr_leaves: the leaves, a power of 2
 * @before: whether leaf @a's key comes before leaf @b's; a tie goes to
 *	the leaf of the left subtree, the lower one
 * @data: passed to @before
 *
 * Return: the winning leaf.
 */
int sp_losertree_build(int *losers, int nr_leaves,
		       bool (*before)(const void *data, int a, int b), const void *data);

#endif /* SP_LOSERTREE_H */
