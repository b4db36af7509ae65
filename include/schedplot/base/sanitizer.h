/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SANITIZER_H
#define SP_SANITIZER_H

/*
 * SP_UNDER_SANITIZER: built with AddressSanitizer, ThreadSanitizer or
 * MemorySanitizer.  They reserve terabytes of address space and check
 * only memory from malloc(), so code that limits memory or maps its own
 * asks first.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SP_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define SP_UNDER_SANITIZER 1
#endif
#endif

#endif /* SP_SANITIZER_H */
