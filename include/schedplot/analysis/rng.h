/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RNG_H
#define SP_RNG_H

#include <stdint.h>

/*
 * xoshiro256** (Blackman and Vigna), its state filled by splitmix64 from a
 * 64-bit seed: the same seed gives the same numbers on every host, which
 * rand() does not promise.  Not for anything secret.
 */
struct sp_rng {
	uint64_t s[4];
};

/**
 * sp_rng_init - seed a generator
 * @rng: the generator
 * @seed: any value, 0 included
 *
 * Return: nothing; seeding cannot fail.
 */
void sp_rng_init(struct sp_rng *rng, uint64_t seed);

/**
 * sp_rng_next - the next 64 random bits
 * @rng: the generator
 *
 * Return: a uniformly distributed 64-bit value.
 */
uint64_t sp_rng_next(struct sp_rng *rng);

/**
 * sp_rng_below - a uniform integer below @n, without modulo bias
 * @rng: the generator
 * @n: the bound, >= 1
 *
 * Return: a value in [0, n), 0 when @n is 0.
 */
uint64_t sp_rng_below(struct sp_rng *rng, uint64_t n);

#endif /* SP_RNG_H */
