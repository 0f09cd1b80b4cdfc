#ifndef C_FACTORY_ATOMICS_H
#define C_FACTORY_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

// The Swift standard library has no atomics below the Synchronization module,
// which needs macOS 15 / iOS 18. These few inline C11 operations give the
// resolution path lock-free reads of per-container flags on every platform.

static inline intptr_t cfactory_atomic_load(intptr_t *address) {
    return atomic_load_explicit((_Atomic(intptr_t) *)address, memory_order_acquire);
}

static inline void cfactory_atomic_store(intptr_t *address, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)address, value, memory_order_release);
}

static inline bool cfactory_atomic_compare_exchange(intptr_t *address, intptr_t expected, intptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        (_Atomic(intptr_t) *)address, &expected, desired,
        memory_order_acq_rel, memory_order_acquire);
}

static inline intptr_t cfactory_atomic_fetch_add(intptr_t *address, intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)address, delta, memory_order_acq_rel);
}

#endif
