#ifndef C_FACTORY_ATOMICS_H
#define C_FACTORY_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <time.h>

// The Swift standard library has no atomics below the Synchronization module,
// which needs macOS 15 / iOS 18. These C11 operations give the resolution path
// lock-free reads of container state on every platform Factory supports.

/// The monotonic clock in nanoseconds: when a cached instance was made, for its time to live.
static inline uint64_t cfactory_monotonic_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

/// How many FactoryProfile recordings of every container run (ProfileRecorder): a build checks it where it starts,
/// so a recording of every container needs no list of the containers that exist.
extern _Atomic(intptr_t) cfactory_profile_everywhere;

static inline intptr_t cfactory_profiling_everywhere(void) {
    return atomic_load_explicit(&cfactory_profile_everywhere, memory_order_relaxed);
}

static inline void cfactory_profile_everywhere_add(intptr_t delta) {
    atomic_fetch_add_explicit(&cfactory_profile_everywhere, delta, memory_order_relaxed);
}

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
//
// The fence that orders a reader's announcement before its loads is asymmetric
// where the system allows it: on Linux with membarrier(2)'s private expedited
// command, a reader's entry is a plain store and a compiler barrier, and the
// rare writer pays instead, with one process-wide barrier (see
// cfactory_wait_for_readers for the argument). Elsewhere, and when the
// environment variable FACTORY_READ_BARRIER is "fence", each entry is a full
// fence. The choice is made once per process, before the first read section or
// wait, and never changes.

typedef struct cfactory_reader cfactory_reader;

/// The calling thread's reader record, or NULL before its first read section.
/// Initial-exec TLS: one register-relative load, no call.
extern _Thread_local cfactory_reader *cfactory_current_reader __attribute__((tls_model("initial-exec")));

/// Claims a reader record for the calling thread (its first read section).
cfactory_reader *cfactory_reader_claim(void);

/// Which barrier read sections use: 1 for the asymmetric (membarrier) one, 0 for
/// a full fence on every entry. Makes the choice if no section or wait has yet.
int cfactory_read_barrier_kind(void);

/// The state word of a reader record (odd: inside a read section).
static inline _Atomic(uint64_t) *cfactory_reader_state(cfactory_reader *reader) {
    return (_Atomic(uint64_t) *)reader;
}

/// Whether a reader record's owner enters sections with the asymmetric barrier:
/// the process's choice (cfactory_read_barrier_kind), copied into the record when
/// it is claimed, so the entry tests a word on the line it writes anyway.
static inline int cfactory_reader_light(cfactory_reader *reader) {
    return ((const int *)reader)[2];
}

/// Enters a read section of the calling thread and returns its record.
static inline __attribute__((always_inline)) void *cfactory_read_begin(void) {
    cfactory_reader *reader = cfactory_current_reader;
    if (__builtin_expect(reader == NULL, 0)) reader = cfactory_reader_claim();
    _Atomic(uint64_t) *state = cfactory_reader_state(reader);
    uint64_t value = atomic_load_explicit(state, memory_order_relaxed);
    // The announcement (an odd state) must be ordered before this thread loads
    // any shared reference, against a writer that unpublishes and then reads the
    // states. Asymmetric: the writer's membarrier supplies the hardware fence at
    // whatever point this thread is at, so only the compiler must keep the
    // section's loads after the store. Otherwise a full fence here, paired with
    // the seq_cst fence of cfactory_wait_for_readers.
    if (__builtin_expect(cfactory_reader_light(reader) != 0, 1)) {
        atomic_store_explicit(state, value + 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        return reader;
    }
#if defined(__x86_64__) || defined(__i386__)
    // A locked exchange is a full fence on x86; the signal fence stops the
    // compiler from moving the section's loads above it.
    atomic_exchange_explicit(state, value + 1, memory_order_seq_cst);
    atomic_signal_fence(memory_order_seq_cst);
#else
    atomic_store_explicit(state, value + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
#endif
    return reader;
}

/// Leaves the read section entered with `record`.
///
/// Deliberately not inline: the Swift optimizer moves retains down to the first
/// use of an object and past any store it can see, so an inlined end would let
/// the retain of a loaded reference drift out of the section, after which a
/// writer may free the object first. An opaque call is a point no retain crosses.
void cfactory_read_end(void *record);

/// Returns once every read section that was open when it was called has ended.
/// Must not be called from inside a read section (debug builds stop the program).
/// Returns 1 the first time in the process that a reader kept the caller waiting
/// for over 100 ms, else 0.
int cfactory_wait_for_readers(void);

/// How many threads wait in cfactory_wait_for_readers for the section open in
/// `record` (from cfactory_read_begin) to end, at this moment. For tests.
intptr_t cfactory_read_waiting_writers(void *record);

/// Stops the program with `message`: the library used a read section wrongly.
void cfactory_misuse(const char *message);

// MARK: - The resolution context

/// The calling thread's resolution context (a retained Swift object), or NULL.
extern _Thread_local void *cfactory_current_context __attribute__((tls_model("initial-exec")));

static inline void *cfactory_context(void) {
    return cfactory_current_context;
}

/// Makes `context` the calling thread's resolution context; `release` is called
/// with it when the thread exits.
void cfactory_set_context(void *context, void (*release)(void *));

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

// MARK: - Copies of the library

/// Looks, once per copy of this library, for another copy loaded in the process
/// (each dynamic library or executable that linked it statically holds one), among
/// the images whose symbols the dynamic loader can look up. Returns the report,
/// which names the images that hold this copy and another, the first time a copy of
/// the process finds one; NULL when this copy looked before, when no other copy is
/// found, when one was reported already, when the environment variable
/// FACTORY_ALLOW_LIBRARY_COPIES is "1", or where the platform cannot tell (a static
/// executable, Windows). The text stays valid for the rest of the process.
__attribute__((visibility("hidden"))) const char *cfactory_library_copies(void);

/// Writes `message` and a newline to standard error, unbuffered.
__attribute__((visibility("hidden"))) void cfactory_write_standard_error(const char *message);

#endif
