#!/usr/bin/env python3
"""What each feature of the library costs in an app: the library's code and
unwind tables in an unstripped release executable, by feature and by type.

    Benchmarks/AppScale/feature-sizes.py <unstripped executable> [--types N]

Symbols are the library's when their mangled name names one of its modules
(FactoryCore, FactoryScopes, FactoryWrappers, FactoryKit) or they are its C
target's (`cfactory_`); generic code the app specializes for its own types is the
app's (per factory), not counted here. Each function's unwind-table entry (FDE
in .eh_frame) is counted with the function. Sections that are not per function
(relocations, metadata, data) are listed as totals: they are shared.

app-scale.sh runs it on the smaller app; Benchmarks/README.md keeps the table.
"""
import bisect
import re
import subprocess
import sys
from collections import defaultdict

MODULES = ("11FactoryCore", "13FactoryScopes", "15FactoryWrappers", "10FactoryKit")

# Feature of a symbol, from its demangled name: the first pattern that matches.
FEATURES = [
    ("profile (FactoryProfile)", r"Profile|profile"),
    ("async factories", r"Async|TaskJoining|AsyncKind|resolveOnMainActor|resolveOnGlobalActor"),
    ("shutdown", r"Shutdown|shutdown"),
    ("contexts (onTest, onArg, ...)", r"FactoryContext|ContextOverride|bestContext|isPreview|isSimulator"),
    ("captive dependencies, graph-validation hooks", r"Captive|Watched|watch|Validation|validation|Validating"),
    ("trace", r"Trace|LoggerBox|trace"),
    ("cross-thread cycle detection", r"WaitGraph|WaitPoint|waitFor|BuildWaiter|buildWaiter"),
    ("push/pop snapshots", r"Snapshot|push\(|pop\(|restoreCells"),
    ("auto-registration", r"AutoRegister|autoRegister|ensureAutoRegistered"),
    ("per-parameter caches (scopeOnParameters)", r"Parameter(Key|Lookup|Candidates|Cells|Gate|Index)|parameterCells|parameterKey"),
    ("type-based mode (Resolving)", r"Resolving"),
    ("custom cache strategies", r"CacheStrategy|ScopeCache|CustomScope|OwningFactory|PreparedCells|CellOwner"),
    ("singletons and global storage", r"Singleton|GlobalStorage|singleton"),
    ("property wrappers", r"Injected|LazyCell|WeakLazy|InjectedType|InjectedContainer|Wrappers"),
    ("misuse messages", r"FactoryError|FactoryLock\.fail|failMainActor|failCycle"),
]
CORE = "resolution engine (hit, general path, caches, options, locks)"


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def library_symbols(binary):
    """(address, size, mangled) of the library's functions and data, sorted by address."""
    symbols = []
    for line in run("nm", "-S", "--defined-only", binary).splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        address, size, kind, name = parts
        if any(module in name for module in MODULES) or name.startswith("cfactory_"):
            symbols.append((int(address, 16), int(size, 16), kind, name))
    symbols.sort()
    return symbols


def demangle(names):
    out = subprocess.run(
        ["swift", "demangle", "--simplified", "--compact"], input="\n".join(names), check=True,
        capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, out))


def fde_sizes(binary):
    """Bytes of unwind table per function start address."""
    sizes = {}
    pattern = re.compile(r"^[0-9a-f]+ ([0-9a-f]+) [0-9a-f]+ FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\.\.")
    for line in run("readelf", "--debug-dump=frames", binary).splitlines():
        match = pattern.match(line)
        if match:
            sizes[int(match.group(2), 16)] = int(match.group(1), 16) + 4
    return sizes


def feature_of(demangled):
    for feature, pattern in FEATURES:
        if re.search(pattern, demangled):
            return feature
    return CORE


def type_of(demangled):
    """The outermost library type a symbol belongs to, or its function's name."""
    text = re.sub(r"^(static |protocol witness for |generic specialization <[^>]*> of |merged |"
                  r"outlined [a-z ]+ of |type metadata accessor for |nominal type descriptor for |"
                  r"reabstraction thunk helper from |closure #\d+ in |implicit closure #\d+ in )+", "", demangled)
    match = re.match(r"(?:[A-Za-z_][\w]*\.)?([A-Z][\w]*)", text)
    return match.group(1) if match else text[:40]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    top_types = int(sys.argv[sys.argv.index("--types") + 1]) if "--types" in sys.argv else 15
    symbols = library_symbols(binary)
    names = demangle([name for _, _, _, name in symbols])
    fdes = fde_sizes(binary)
    by_feature = defaultdict(lambda: [0, 0, 0])
    by_type = defaultdict(int)
    for address, size, kind, name in symbols:
        demangled = names[name]
        unwind = fdes.get(address, 0) if kind in "tT" else 0
        entry = by_feature[feature_of(demangled)]
        entry[0] += size if kind in "tT" else 0
        entry[1] += unwind
        entry[2] += size if kind not in "tT" else 0
        by_type[type_of(demangled)] += size + unwind
    sections = {}
    for line in run("size", "-A", binary).splitlines()[2:]:
        parts = line.split()
        if len(parts) == 3 and not parts[0].startswith(".debug"):
            sections[parts[0]] = int(parts[1])

    print("| feature | code | unwind tables | data | total |")
    print("|---|---|---|---|---|")
    total = [0, 0, 0]
    for feature, (code, unwind, data) in sorted(by_feature.items(), key=lambda item: -sum(item[1])):
        total = [total[0] + code, total[1] + unwind, total[2] + data]
        print(f"| {feature} | {code / 1024:.1f} KB | {unwind / 1024:.1f} KB | {data / 1024:.1f} KB "
              f"| {(code + unwind + data) / 1024:.1f} KB |")
    print(f"| **the library, by symbol** | {total[0] / 1024:.1f} KB | {total[1] / 1024:.1f} KB "
          f"| {total[2] / 1024:.1f} KB | {sum(total) / 1024:.1f} KB |")
    print()
    print("Largest types (code and unwind tables): " + ", ".join(
        f"{name} {size / 1024:.1f}" for name, size in sorted(by_type.items(), key=lambda item: -item[1])[:top_types])
        + " (KB).")
    print()
    print("Whole executable, sections shared by the app and every library (not by feature): " + ", ".join(
        f"{name} {sections[name] / 1024:.0f} KB" for name in
        (".text", ".eh_frame", ".eh_frame_hdr", ".rela.dyn", ".rodata", ".data", ".data.rel.ro", "swift5_fieldmd",
         "swift5_typeref") if name in sections) + ".")


if __name__ == "__main__":
    main()
