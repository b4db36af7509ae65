// SPDX-License-Identifier: GPL-2.0-only
#include "schedplot/base/losertree.h"

struct tournament {
	int *losers;
	int nr_leaves;
	bool (*before)(const void *data, int a, int b);
	const void *data;
};

/* The matches under @node: its winner, the losers kept at each node. */
static int play(const struct tournament *t, int node)
{
	int a, b;

	if (node >= t->nr_leaves)
		return node - t->nr_leaves;
	a = play(t, 2 * node);
	b = play(t, 2 * node + 1);
	if (t->before(t->data, b, a)) {
		t->losers[node] = a;
		return b;
	}
	t->losers[node] = b;
	return a;
}

int sp_losertree_build(int *losers, int nr_leaves,
		       bool (*before)(const void *data, int a, int b), const void *data)
{
	const struct tournament t = { losers, nr_leaves, before, data };

	return play(&t, 1);
}
