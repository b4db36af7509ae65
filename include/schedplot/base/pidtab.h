/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_PIDTAB_H
#define SP_PIDTAB_H

/*
 * pidtab: a table of entries keyed by pid, by open addressing with linear
 * probing.  Each entry begins with its int32_t pid; pid 0 marks a free
 * slot, so 0 (the idle task) is never a key.  The table keeps no entry
 * size: every call names it, the same for one table.  A zeroed struct is
 * an empty table.
 */
#include <stddef.h>
#include <stdint.h>

struct sp_pidtab {
	void *slots;		/* alloc entries (a power of 2), nr of them used */
	size_t nr, alloc;
};

/**
 * sp_pidtab_home - the slot a lookup of @pid begins at
 * @pid: the key
 * @alloc: the table's slots
 *
 * Return: the slot, where @pid's entry is most often (Fibonacci hashing
 * spreads the pids, which come mostly consecutive): a caller on a hot
 * path may look there before it calls sp_pidtab_get().
 */
static inline size_t sp_pidtab_home(int32_t pid, size_t alloc)
{
	return ((uint32_t)pid * 2654435761u) & (alloc - 1);
}

/**
 * sp_pidtab_find - @pid's entry
 * @t: the table
 * @pid: the key (not 0)
 * @size: bytes of an entry
 *
 * Return: the entry, or NULL when @pid has none.
 */
void *sp_pidtab_find(const struct sp_pidtab *t, int32_t pid, size_t size);

/**
 * sp_pidtab_get - @pid's entry, made on first sight
 * @t: the table
 * @pid: the key (not 0)
 * @size: bytes of an entry
 * @min_alloc: the slots of the first table made (a power of 2)
 *
 * A new entry is zeroed but for its pid.  The table doubles when it is
 * half full; entries move then.
 *
 * Return: the entry, valid until the next sp_pidtab_get(); NULL when out
 * of memory (the table is unchanged).
 */
void *sp_pidtab_get(struct sp_pidtab *t, int32_t pid, size_t size, size_t min_alloc);

/**
 * sp_pidtab_clear - empty a table, keeping its memory
 * @t: the table
 * @size: bytes of an entry
 */
void sp_pidtab_clear(struct sp_pidtab *t, size_t size);

/**
 * sp_pidtab_release - free a table's memory; it is then empty
 * @t: the table
 */
void sp_pidtab_release(struct sp_pidtab *t);

#endif /* SP_PIDTAB_H */
