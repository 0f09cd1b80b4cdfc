#ifndef C_FACTORY_ATOMICS_H
#define C_FACTORY_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

// The Swift standard library has no atomics below the Synchronization module,
// which needs macOS 15 / iOS 18. These C11 operations give the resolution path
// lock-free reads of container state on every platform Factory supports.

static inline intptr_t cfactory_atomic_load(intptr_t *address) {
    return atomic_load_explicit((_Atomic(intptr_t) *)address, memory_order_acquire);
}

static inline intptr_t cfactory_atomic_load_relaxed(intptr_t *address) {
    return atomic_load_explicit((_Atomic(intptr_t) *)address, memory_order_relaxed);
}

static inline void cfactory_atomic_store(intptr_t *address, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)address, value, memory_order_release);
}

/// A store that is ordered before every later load of this thread (a full fence):
/// writers publish with it before they wait for readers to leave their read sections.
static inline void cfactory_atomic_store_seq_cst(intptr_t *address, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)address, value, memory_order_seq_cst);
}

static inline intptr_t cfactory_atomic_exchange(intptr_t *address, intptr_t value) {
    return atomic_exchange_explicit((_Atomic(intptr_t) *)address, value, memory_order_seq_cst);
}

static inline bool cfactory_atomic_compare_exchange(intptr_t *address, intptr_t expected, intptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        (_Atomic(intptr_t) *)address, &expected, desired,
        memory_order_acq_rel, memory_order_acquire);
}

static inline intptr_t cfactory_atomic_fetch_add(intptr_t *address, intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)address, delta, memory_order_acq_rel);
}

// MARK: - Read sections
//
// Lock-free readers of shared references (a cached instance, a factory's
// registration) must not see the object freed under them. A reader brackets its
// reads with cfactory_read_begin/cfactory_read_end; a writer that unpublishes an
// object calls cfactory_wait_for_readers before releasing it. Each thread has its
// own record, on a cache line of its own, so a reader writes no memory that
// another thread reads on its fast path. Read sections are short, never nest and
// never run user code; the writer's wait is therefore bounded.

/// Enters a read section of the calling thread and returns its record.
void *cfactory_read_begin(void);

/// Leaves the read section entered with `record`.
void cfactory_read_end(void *record);

/// Returns once every read section that was open when it was called has ended.
/// Must not be called from inside a read section.
void cfactory_wait_for_readers(void);

// MARK: - Threads

/// Whether the calling code runs on the main actor: on the process's main
/// thread, or inside a block of the main dispatch queue (where the main actor
/// runs its jobs when the main thread is parked in `dispatchMain()`, as under
/// Swift Testing on Linux).
bool cfactory_is_main_actor(void);

/// A number identifying the calling thread in messages (the kernel's thread id where there is one).
uint64_t cfactory_thread_id(void);

/// Yields the processor to another thread.
void cfactory_yield(void);

#endif
