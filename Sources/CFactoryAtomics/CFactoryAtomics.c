#include "CFactoryAtomics.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__APPLE__)
#include <pthread/pthread.h>
#elif defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/membarrier.h>)
#include <linux/membarrier.h>
// The commands are enumerators, not macros: this says the header was found.
#define CFACTORY_HAS_MEMBARRIER 1
#endif
#endif

// MARK: - Read sections

// One record per thread that ever read, on its own cache line. Records are never
// freed: a thread that exits gives its record back and a new thread reuses it, so
// the list only grows to the largest number of threads alive at once.
struct cfactory_reader {
    // Odd while the owning thread is inside a read section; every begin and end
    // adds one, so a writer that sees the value change knows the section ended.
    _Atomic(uint64_t) state;
    // Written by the owning thread only, when it claims the record; read by it in
    // cfactory_read_begin (cfactory_reader_light reads it at this offset).
    int light;
    _Atomic(int) in_use;
    struct cfactory_reader *next;
    // How many writers spin on this record's open section right now: lets a test
    // see that a writer waits, instead of guessing from how long it took. Written
    // only by a writer that found the section open, never by a read.
    _Atomic(intptr_t) waiting_writers;
    char padding[64 - sizeof(uint64_t) - 2 * sizeof(int) - sizeof(void *) - sizeof(intptr_t)];
} __attribute__((aligned(64)));

_Static_assert(offsetof(cfactory_reader, light) == 2 * sizeof(int), "cfactory_reader_light reads this offset");

static _Atomic(cfactory_reader *) readers = NULL;
_Thread_local cfactory_reader *cfactory_current_reader __attribute__((tls_model("initial-exec"))) = NULL;
static pthread_key_t reader_key;
static pthread_once_t reader_setup_once = PTHREAD_ONCE_INIT;
// Nonzero when read sections use the asymmetric barrier. Written once, inside
// the pthread_once that cfactory_reader_claim and cfactory_wait_for_readers run
// first, so every thread sees its final value: readers through the copy in their
// record, writers here.
static int cfactory_asymmetric_barrier = 0;

// Stops the program naming the call that failed, as FactoryLock does for its
// mutex: a key, once or thread-specific call that failed leaves read sections or
// the resolution context unusable, and going on would corrupt state silently.
static void cfactory_check(int result, const char *operation) {
    if (result == 0) return;
    fprintf(stderr, "FactoryCore: %s failed with error %d (%s)\n", operation, result, strerror(result));
    abort();
}

static void reader_release(void *record) {
    cfactory_reader *reader = record;
    cfactory_current_reader = NULL;
    atomic_store_explicit(&reader->in_use, 0, memory_order_release);
}

#if defined(CFACTORY_HAS_MEMBARRIER) && defined(__NR_membarrier)
// Whether this process may use membarrier's private expedited command: the
// kernel has it (4.14 and later) and a sandbox does not refuse it (seccomp
// profiles may answer ENOSYS or EPERM). Registration is once per process.
static int membarrier_available(void) {
    long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return 0;
    return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

// Every thread of the process that is running executes a full memory barrier
// before this returns; one that is not running passes one when it is scheduled.
static void heavy_barrier(void) {
    while (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
        // Registered at start-up, so the only failure is an interrupted call;
        // anything else would leave readers unordered: stop rather than free early.
        if (errno != EINTR) {
            fprintf(stderr, "FactoryCore: membarrier failed after registration: %s\n", strerror(errno));
            abort();
        }
    }
}
#else
static int membarrier_available(void) {
    return 0;
}

static void heavy_barrier(void) {}
#endif

// Runs once, before the first read section and the first wait for readers.
static void reader_setup(void) {
    cfactory_check(pthread_key_create(&reader_key, reader_release), "pthread_key_create (read sections)");
    const char *forced = getenv("FACTORY_READ_BARRIER");
    if (forced != NULL && strcmp(forced, "fence") == 0) return;
    cfactory_asymmetric_barrier = membarrier_available();
}

int cfactory_read_barrier_kind(void) {
    cfactory_check(pthread_once(&reader_setup_once, reader_setup), "pthread_once (read sections)");
    return cfactory_asymmetric_barrier;
}

cfactory_reader *cfactory_reader_claim(void) {
    cfactory_check(pthread_once(&reader_setup_once, reader_setup), "pthread_once (read sections)");
    cfactory_reader *reader = atomic_load_explicit(&readers, memory_order_acquire);
    for (; reader != NULL; reader = reader->next) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&reader->in_use, &expected, 1)) break;
    }
    if (reader == NULL) {
        void *memory = NULL;
        if (posix_memalign(&memory, 64, sizeof(cfactory_reader)) != 0) abort();
        reader = memory;
        atomic_init(&reader->state, 0);
        atomic_init(&reader->in_use, 1);
        atomic_init(&reader->waiting_writers, 0);
        cfactory_reader *head = atomic_load_explicit(&readers, memory_order_relaxed);
        do {
            reader->next = head;
        } while (!atomic_compare_exchange_weak_explicit(
            &readers, &head, reader, memory_order_seq_cst, memory_order_relaxed));
    }
    // Orders the claim (a new head, or in_use 0 -> 1) before this thread's first
    // section loads anything: the case of a record a writer did not see, argued at
    // cfactory_wait_for_readers. Once per thread.
    atomic_thread_fence(memory_order_seq_cst);
    reader->light = cfactory_asymmetric_barrier;
    cfactory_check(pthread_setspecific(reader_key, reader), "pthread_setspecific (read sections)");
    cfactory_current_reader = reader;
    return reader;
}

void cfactory_read_end(void *record) {
    _Atomic(uint64_t) *state = cfactory_reader_state((cfactory_reader *)record);
    uint64_t value = atomic_load_explicit(state, memory_order_relaxed);
#if DEBUG
    // Even here means a second begin ran inside this section: sections must not
    // nest (a writer waiting for readers would then wait for a section that the
    // same thread cannot end until the writer returns).
    if ((value & 1) == 0) cfactory_misuse("a read section ended that was not open, or read sections nested");
#endif
    // Release: every load of the section happens before a writer that sees the
    // new (even) value goes on to free what the section loaded.
    atomic_store_explicit(state, value + 1, memory_order_release);
}

static uint64_t monotonic_nanoseconds(void) {
    struct timespec time;
    cfactory_check(clock_gettime(CLOCK_MONOTONIC, &time) == 0 ? 0 : errno, "clock_gettime");
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

// Set by the first wait that took longer than the bound, so that it is reported once.
static _Atomic(int) slow_reader_reported = 0;

// Whether a record other than `self` belongs to a live thread. A record seen
// free here either stays free while the writer reads the states, or is claimed
// by a thread whose sections all load after the writer's fence (see below).
static int other_readers_exist(cfactory_reader *head, cfactory_reader *self) {
    for (cfactory_reader *reader = head; reader != NULL; reader = reader->next) {
        if (reader != self && atomic_load_explicit(&reader->in_use, memory_order_acquire) != 0) return 1;
    }
    return 0;
}

intptr_t cfactory_read_waiting_writers(void *record) {
    return atomic_load_explicit(&((cfactory_reader *)record)->waiting_writers, memory_order_acquire);
}

// Spins until `reader` leaves the section it is in, if any. Returns 1 when it
// waited over 100 ms and this is the first such wait in the process.
static int wait_for_reader(cfactory_reader *reader) {
    uint64_t state = atomic_load_explicit(&reader->state, memory_order_acquire);
    if ((state & 1) == 0) return 0;
    atomic_fetch_add_explicit(&reader->waiting_writers, 1, memory_order_acq_rel);
    int slow = 0;
    unsigned spins = 0;
    uint64_t started = 0;
    while (atomic_load_explicit(&reader->state, memory_order_acquire) == state) {
        if (++spins <= 64) continue;
        sched_yield();
        // A section never runs user code, so it lasts nanoseconds unless its
        // thread was descheduled; one that lasts over 100 ms is reported once.
        if (started == 0) started = monotonic_nanoseconds();
        if (!slow && (spins & 1023) == 0 && monotonic_nanoseconds() - started > 100000000u) {
            int expected = 0;
            slow = atomic_compare_exchange_strong(&slow_reader_reported, &expected, 1);
        }
    }
    atomic_fetch_sub_explicit(&reader->waiting_writers, 1, memory_order_acq_rel);
    return slow;
}

// Why a writer may free an object once this returns, for every reader R:
// - The writer unpublished the object (an atomic exchange, under its lock)
//   before calling this; then comes the seq_cst fence F below.
// - Full-fence flavour. R's entry in cfactory_read_begin is a store of an odd
//   state followed by a seq_cst fence G (a locked exchange on x86), and only
//   then R loads shared references. F and G are ordered one way or the other:
//   - G first: R's odd state is visible to the state load below; the writer
//     waits until it changes, and R's release store in cfactory_read_end
//     (paired with the acquire load here) orders all of R's loads, and the
//     retains they led to, before the free.
//   - F first: R's later loads see the exchange, so R never loads the
//     unpublished object.
// - Asymmetric flavour. R's entry is a relaxed store of the odd state and a
//   compiler barrier, so its loads follow the store in R's program order. The
//   writer's membarrier, after F, makes every running thread of the process
//   execute a full barrier (one that is not running passed one when it was
//   switched out, and passes another when it is switched in), and returns only
//   after they have. That barrier lands somewhere in R's program order, and
//   plays the role of G above: after R's odd store, the store is visible to the
//   state load below, which follows the membarrier; before it, every load of
//   the section follows a full barrier that follows F, and sees the exchange.
//   The exit needs nothing more than the release store of the first flavour.
//   When no record but the writer's own is in use, no other thread can be in a
//   section and the membarrier is skipped: single-threaded register, reset and
//   pop pay one fence.
// - A record added to the list after the writer loaded its head, or claimed
//   after the writer saw it free, belongs to a thread that then executed a
//   seq_cst fence in cfactory_reader_claim before its first section. The
//   writer's load did not see that claim, so F precedes the claim's fence in
//   the single total order of seq_cst fences, and every load of that thread's
//   sections sees the exchange: it cannot hold the object.
// - A record given back by an exiting thread was released (release store of
//   in_use) after that thread's last section ended, so a writer that reads it
//   free (acquire) waits for nothing there.
int cfactory_wait_for_readers(void) {
    cfactory_check(pthread_once(&reader_setup_once, reader_setup), "pthread_once (read sections)");
    cfactory_reader *self = cfactory_current_reader;
#if DEBUG
    if (self != NULL && (atomic_load_explicit(&self->state, memory_order_relaxed) & 1) != 0) {
        cfactory_misuse("a writer waited for readers inside its own read section");
    }
#endif
    atomic_thread_fence(memory_order_seq_cst);
    cfactory_reader *head = atomic_load_explicit(&readers, memory_order_acquire);
    if (cfactory_asymmetric_barrier) {
        if (!other_readers_exist(head, self)) return 0;
        heavy_barrier();
    }
    int slow = 0;
    for (cfactory_reader *reader = head; reader != NULL; reader = reader->next) {
        if (reader != self && wait_for_reader(reader)) slow = 1;
    }
    return slow;
}

void cfactory_misuse(const char *message) {
    fprintf(stderr, "FactoryCore: read-section misuse: %s\n", message);
    abort();
}

// MARK: - The resolution context

_Thread_local void *cfactory_current_context __attribute__((tls_model("initial-exec"))) = NULL;

static pthread_key_t context_key;
static pthread_once_t context_key_once = PTHREAD_ONCE_INIT;
// Every thread stores the same function; atomic so that the stores do not race.
typedef void (*context_release_fn)(void *);
static _Atomic(context_release_fn) context_release = NULL;

static void context_destroy(void *context) {
    cfactory_current_context = NULL;
    context_release_fn release = atomic_load_explicit(&context_release, memory_order_relaxed);
    if (release != NULL) release(context);
}

static void context_make_key(void) {
    cfactory_check(pthread_key_create(&context_key, context_destroy), "pthread_key_create (resolution context)");
}

void cfactory_set_context(void *context, void (*release)(void *)) {
    cfactory_check(pthread_once(&context_key_once, context_make_key), "pthread_once (resolution context)");
    atomic_store_explicit(&context_release, release, memory_order_relaxed);
    cfactory_current_context = context;
    // The key only exists to release the context when the thread exits.
    cfactory_check(pthread_setspecific(context_key, context), "pthread_setspecific (resolution context)");
}

// MARK: - Threads

#if defined(__APPLE__)
// The main dispatch queue always runs on the main thread here.
static bool cfactory_is_main_thread(void);

bool cfactory_is_main_actor(void) {
    return cfactory_is_main_thread();
}
#else
// libdispatch's C interface, declared here because its headers are not on a C
// target's include path on Linux; the library itself ships with Swift. Weak, so
// that a program built without the SwiftConcurrency trait (which links
// libdispatch) does not pull libdispatch in: there, nothing can park the main
// thread in dispatch_main(), and the main thread is the only main actor.
struct dispatch_queue_s;
extern struct dispatch_queue_s _dispatch_main_q __attribute__((weak));
extern void dispatch_queue_set_specific(
    struct dispatch_queue_s *queue, const void *key, void *context, void (*destructor)(void *))
    __attribute__((weak));
extern void *dispatch_get_specific(const void *key) __attribute__((weak));

static bool cfactory_is_main_thread(void);

static char main_queue_marker;
static pthread_once_t main_queue_marked = PTHREAD_ONCE_INIT;

static void mark_main_queue(void) {
    dispatch_queue_set_specific(&_dispatch_main_q, &main_queue_marker, &main_queue_marker, NULL);
}

bool cfactory_is_main_actor(void) {
    if (cfactory_is_main_thread()) return true;
    if (&_dispatch_main_q == NULL || dispatch_queue_set_specific == NULL || dispatch_get_specific == NULL) {
        return false;
    }
    cfactory_check(pthread_once(&main_queue_marked, mark_main_queue), "pthread_once (main queue)");
    return dispatch_get_specific(&main_queue_marker) == &main_queue_marker;
}
#endif

#if defined(__APPLE__)
static bool cfactory_is_main_thread(void) {
    return pthread_main_np() != 0;
}

uint64_t cfactory_thread_id(void) {
    uint64_t identifier = 0;
    cfactory_check(pthread_threadid_np(NULL, &identifier), "pthread_threadid_np");
    return identifier;
}
#elif defined(__linux__)
// The main thread is the one whose thread id is the process id; a syscall, but
// only main-actor factory closures ask, once per build.
static bool cfactory_is_main_thread(void) {
    return syscall(SYS_gettid) == getpid();
}

uint64_t cfactory_thread_id(void) {
    return (uint64_t)syscall(SYS_gettid);
}
#else
static pthread_t main_thread;

// Runs while the program loads, on the main thread, before any Swift code.
__attribute__((constructor)) static void cfactory_record_main_thread(void) {
    main_thread = pthread_self();
}

static bool cfactory_is_main_thread(void) {
    return pthread_equal(pthread_self(), main_thread) != 0;
}

uint64_t cfactory_thread_id(void) {
    return (uint64_t)(uintptr_t)pthread_self();
}
#endif

void cfactory_yield(void) {
    sched_yield();
}

_Atomic(intptr_t) cfactory_profile_everywhere = 0;
