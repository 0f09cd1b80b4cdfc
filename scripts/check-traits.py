#!/usr/bin/env python3
"""The package enables at most one trait by default, counting the traits that trait enables.

SwiftPM hands a build's enabled traits to the compiler (`-D` flags) in an order that changes
from one planning of the build to the next (swiftlang/swift-package-manager#10525). With two, every other re-planning (an edit of a
manifest, a plugin run) changed every compile command and rebuilt the library and every
module above it, in this package and in each one that depends on it.

    swift package dump-package | scripts/check-traits.py
"""
import json
import sys

traits = {trait["name"]: trait.get("enabledTraits", []) for trait in json.load(sys.stdin).get("traits", [])}
enabled, pending = set(), list(traits.get("default", []))
while pending:
    name = pending.pop()
    if name not in enabled:
        enabled.add(name)
        pending.extend(traits.get(name, []))
if len(enabled) > 1:
    sys.exit(
        f"error: the default traits enable {len(enabled)} traits ({', '.join(sorted(enabled))}): SwiftPM orders their "
        "compiler flags differently from one build planning to the next, rebuilding everything; keep one"
    )
print(f"check-traits: the default traits enable {', '.join(sorted(enabled)) or 'nothing'}")
