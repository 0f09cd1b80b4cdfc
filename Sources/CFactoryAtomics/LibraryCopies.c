// Finds other copies of this library in the process (see cfactory_library_copies
// in CFactoryAtomics.h). Every copy has its own `copy_word`; the exported function
// cfactory_library_copy_word returns it. Looking that function up in every loaded
// image gives one word per copy, whichever image holds it, and the images that
// hold them are named with dladdr.
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
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#elif defined(__linux__)
#include <link.h>
// Weak: a static executable (`-static-executable`) that does not otherwise use the
// dynamic loader does not link it in for this; there these are NULL and nothing is
// looked for (such a program has one copy, unless it loads code at run time).
#pragma weak dl_iterate_phdr
#pragma weak dlopen
#pragma weak dlsym
#pragma weak dlclose
#pragma weak dladdr
#endif

// This copy's word. In the copy found first, it counts the copies that were
// reported (by any copy), so that the process reports each new copy once.
static _Atomic(intptr_t) copy_word = 0;
// Whether this copy looked already.
static _Atomic(int) looked = 0;

__attribute__((visibility("default"))) _Atomic(intptr_t) *cfactory_library_copy_word(void) {
    return &copy_word;
}

void cfactory_write_standard_error(const char *message) {
    size_t length = strlen(message);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, message, length);
        // A full or closed standard error: the message is lost, nothing else to do.
        if (written <= 0) return;
        message += written;
        length -= (size_t)written;
    }
}

#if defined(CFACTORY_CAN_FIND_COPIES)

typedef _Atomic(intptr_t) *(*copy_word_function)(void);

// A growing list of pointers, freed by list_free.
struct list {
    void **items;
    size_t count;
    size_t capacity;
};

static int list_append(struct list *list, void *item) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity == 0 ? 16 : list->capacity * 2;
        void **items = realloc(list->items, capacity * sizeof(void *));
        if (items == NULL) return 0;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return 1;
}

static void list_free(struct list *list, void (*free_item)(void *)) {
    for (size_t index = 0; index < list->count; index++) free_item(list->items[index]);
    free(list->items);
}

static void close_handle(void *handle) {
    // A failed dlclose leaves the image loaded, which it already was: nothing to undo.
    (void)dlclose(handle);
}

static void no_free(void *item) {
    (void)item;
}

// Opens, without loading anything, the image `path` (NULL: the main program), and
// adds its handle to `handles`. 0 when memory ran out.
static int add_handle(struct list *handles, const char *path) {
    void *handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    // Not loaded any more, or not an image dlopen can open (the vDSO): skipped.
    if (handle == NULL) return 1;
    if (list_append(handles, handle)) return 1;
    close_handle(handle);
    return 0;
}

#if defined(__linux__)
// dl_iterate_phdr holds the loader's lock while it calls back: the paths are
// copied out, and opened after it returns.
static int collect_path(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char *name = info->dlpi_name;
    // The main program has no name here; it is opened as NULL by the caller.
    if (name == NULL || name[0] == '\0') return 0;
    char *copy = strdup(name);
    if (copy == NULL) return 1;
    if (!list_append(data, copy)) {
        free(copy);
        return 1;
    }
    return 0;
}

static int open_images(struct list *handles) {
    if (dl_iterate_phdr == NULL || dlopen == NULL || dlsym == NULL || dlclose == NULL) return 0;
    struct list paths = {0};
    int complete = dl_iterate_phdr(collect_path, &paths) == 0;
    if (complete) complete = add_handle(handles, NULL);
    for (size_t index = 0; complete && index < paths.count; index++) {
        complete = add_handle(handles, paths.items[index]);
    }
    list_free(&paths, free);
    return complete;
}
#else
// System images never hold this library: their paths are skipped, which keeps
// the walk short in an app that loads hundreds of them.
static int is_system_image(const char *path) {
    return strncmp(path, "/usr/lib/", 9) == 0 || strncmp(path, "/System/", 8) == 0;
}

static int open_images(struct list *handles) {
    uint32_t count = _dyld_image_count();
    for (uint32_t index = 0; index < count; index++) {
        // NULL when the image was unloaded meanwhile.
        const char *path = _dyld_get_image_name(index);
        if (path == NULL || is_system_image(path)) continue;
        if (!add_handle(handles, path)) return 0;
    }
    return 1;
}
#endif

// Adds `word` to `words` unless it is there; 0 when memory ran out.
static int add_word(struct list *words, void *word) {
    for (size_t index = 0; index < words->count; index++) {
        if (words->items[index] == word) return 1;
    }
    return list_append(words, word);
}

// The name of the image that holds `address`, or a stand-in.
static const char *image_name(const void *address) {
    Dl_info info;
    if (dladdr == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0') {
        return "(an image the system does not name)";
    }
    return info.dli_fname;
}

// "count\npath\npath...", for the copies' words in `words`, or NULL when memory ran out.
static char *describe(const struct list *words) {
    size_t length = 32;
    for (size_t index = 0; index < words->count; index++) length += strlen(image_name(words->items[index])) + 1;
    char *text = malloc(length);
    if (text == NULL) return NULL;
    size_t used = (size_t)snprintf(text, length, "%zu", words->count);
    for (size_t index = 0; index < words->count && used < length; index++) {
        used += (size_t)snprintf(text + used, length - used, "\n%s", image_name(words->items[index]));
    }
    return text;
}

char *cfactory_library_copies(void) {
    // Every container a copy makes asks; after the first, a load answers.
    if (atomic_load_explicit(&looked, memory_order_relaxed) != 0 || atomic_exchange(&looked, 1) != 0) return NULL;
    const char *allowed = getenv("FACTORY_ALLOW_LIBRARY_COPIES");
    if (allowed != NULL && strcmp(allowed, "1") == 0) return NULL;
    struct list handles = {0};
    struct list words = {0};
    char *result = NULL;
    int complete = open_images(&handles);
    // Each copy's word once, in the order of the walk, which every copy makes alike.
    for (size_t index = 0; complete && index < handles.count; index++) {
        copy_word_function function = (copy_word_function)dlsym(handles.items[index], "cfactory_library_copy_word");
        // An image (and what it loaded) without the library.
        if (function == NULL) continue;
        complete = add_word(&words, (void *)function());
    }
    // This copy, if its image does not export the function (an executable linked without --export-dynamic).
    if (complete) complete = add_word(&words, (void *)&copy_word);
    if (complete && words.count > 1) {
        // The copy found first keeps the count of copies reported, for every copy:
        // this one reports when it sees more copies than that.
        _Atomic(intptr_t) *reported = words.items[0];
        intptr_t seen = atomic_load(reported);
        while ((intptr_t)words.count > seen) {
            if (atomic_compare_exchange_weak(reported, &seen, (intptr_t)words.count)) {
                result = describe(&words);
                break;
            }
        }
    }
    // The handles stay open until here, so that no image holding a word is unloaded while it is read.
    list_free(&handles, close_handle);
    list_free(&words, no_free);
    return result;
}

#else

char *cfactory_library_copies(void) {
    return NULL;
}

#endif
