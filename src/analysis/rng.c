// SPDX-License-Identifier: GPL-2.0-only
/*
 * rng: a seeded generator of our own for the bootstrap, so that a seed
 * names one result: xoshiro256** seeded with splitmix64.
 */
#include "schedplot/analysis/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sp_rng_init(struct sp_rng *rng, uint64_t seed)
{
	/* splitmix64 never gives four zero words, the one bad state */
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

uint64_t sp_rng_next(struct sp_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t sp_rng_below(struct sp_rng *rng, uint64_t n)
{
	/* 2^64 mod n: draws below it would favour the small residues */
	uint64_t reject, r;

	if (!n)
		return 0;
	reject = -n % n;
	do
		r = sp_rng_next(rng);
	while (r < reject);
	return r % n;
}
