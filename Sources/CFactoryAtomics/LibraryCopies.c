// Finds another copy of this library in the process (see cfactory_library_copies in
// CFactoryAtomics.h). Every copy has its own `copy_word` and exports
// cfactory_library_copy_word, which returns it. The dynamic loader's lookup of that
// name from anywhere (RTLD_DEFAULT) finds the first copy of the process; from this
// copy's image onwards (RTLD_NEXT), a copy loaded after it. A copy that is not the
// first, or the first when another follows it, is one of two; dladdr names the
// images that hold them.
#define _GNU_SOURCE 1
#include "CFactoryAtomics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__APPLE__) || defined(__linux__)
#include <dlfcn.h>
#define CFACTORY_CAN_FIND_COPIES 1
#endif
#if defined(__linux__)
// Weak: a static executable (`-static-executable`) that does not otherwise use the
// dynamic loader does not link it in for this; there these are NULL and nothing is
// looked for (such a program has one copy, unless it loads code at run time).
#pragma weak dlsym
#pragma weak dladdr
#define CFACTORY_LOADER_LINKED(function) ((function) != NULL)
#else
// Always there (libSystem); comparing its address with NULL would only draw a warning.
#define CFACTORY_LOADER_LINKED(function) 1
#endif

// This copy's word. In the first copy of the process, it says whether a copy was
// reported, so that the process reports once.
static _Atomic(intptr_t) copy_word = 0;
// Whether this copy looked already.
static _Atomic(int) looked = 0;

__attribute__((visibility("default"))) _Atomic(intptr_t) *cfactory_library_copy_word(void) {
    return &copy_word;
}

static void write_all(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        // A full or closed standard error: the message is lost, nothing else to do.
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

void cfactory_write_standard_error(const char *message) {
    write_all(message, strlen(message));
    write_all("\n", 1);
}

#if defined(CFACTORY_CAN_FIND_COPIES)

typedef _Atomic(intptr_t) *(*copy_word_function)(void);

// The word of the copy that `handle` (RTLD_DEFAULT, RTLD_NEXT) finds, or NULL.
static _Atomic(intptr_t) *find_copy(void *handle) {
    copy_word_function function = (copy_word_function)dlsym(handle, "cfactory_library_copy_word");
    return function == NULL ? NULL : function();
}

// The name of the image that holds `address`, or a stand-in.
static const char *image_name(const void *address) {
    Dl_info info;
    if (!CFACTORY_LOADER_LINKED(dladdr) || dladdr(address, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0') {
        return "(an image the system does not name)";
    }
    return info.dli_fname;
}

static const char message[] =
    "FactoryCore: this process has loaded more than one copy of the Factory library, each with its own "
    "Container.shared, singletons and registrations: what is registered or built through one is not seen "
    "through another. Copies are in:\n  %s\n  %s\n"
    "Link it once: every dynamic library (framework) of the app links the product FactoryKitDynamic, and a "
    "test target adds FactoryTesting only where that adds no copy (see the article \"Modular apps\"). A "
    "process that means to have several copies sets the environment variable FACTORY_ALLOW_LIBRARY_COPIES=1.";

// The report, written once: the exchange on `reported` lets one caller of the process through.
static char report[4096];

const char *cfactory_library_copies(void) {
    // Every container a copy makes asks; after the first, a load answers.
    if (atomic_load_explicit(&looked, memory_order_relaxed) != 0 || atomic_exchange(&looked, 1) != 0) return NULL;
    const char *allowed = getenv("FACTORY_ALLOW_LIBRARY_COPIES");
    if (!CFACTORY_LOADER_LINKED(dlsym) || (allowed != NULL && strcmp(allowed, "1") == 0)) return NULL;
    // NULL when no image exports the function (an executable linked without
    // --export-dynamic does not): then no other copy can be found either.
    _Atomic(intptr_t) *first = find_copy(RTLD_DEFAULT);
    // The first copy looks after itself; any other copy found is the first.
    _Atomic(intptr_t) *other = first == &copy_word ? find_copy(RTLD_NEXT) : first;
    if (other == NULL || other == &copy_word) return NULL;
    // The first copy keeps whether the process reported; with no first copy
    // exported, this one does.
    _Atomic(intptr_t) *reported = first != NULL ? first : &copy_word;
    if (atomic_exchange(reported, 1) != 0) return NULL;
    const char *here = image_name(&copy_word);
    const char *there = image_name(other);
    // Image names too long for the buffer are cut short, not overrun.
    if (snprintf(report, sizeof report, message, there, here) < 0) return NULL;
    return report;
}

#else

const char *cfactory_library_copies(void) {
    return NULL;
}

#endif
