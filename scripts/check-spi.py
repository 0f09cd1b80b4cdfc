#!/usr/bin/env python3
"""Checks .spi.yml against the Swift Package Index manifest's schema (version 1) and this
package: every key is one the index reads, every platform one it builds, every
documentation target a target of Package.swift with a DocC catalog, every scheme a
product or target."""
import os
import re
import sys

import yaml

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PLATFORMS = {"ios", "macos-spm", "macos-xcodebuild", "linux", "tvos", "watchos", "visionos", "android", "wasm"}
CONFIG_KEYS = {"platform", "swift_version", "image", "scheme", "target", "documentation_targets",
               "custom_documentation_parameters"}
manifest = open("Package.swift").read()
targets = set(re.findall(r'\.(?:target|testTarget|executableTarget|plugin)\(\s*name:\s*"([^"]+)"', manifest))
products = set(re.findall(r'\.(?:library|executable|plugin)\(\s*name:\s*"([^"]+)"', manifest))

errors = []
spi = yaml.safe_load(open(".spi.yml"))
if not isinstance(spi, dict):
    sys.exit(".spi.yml: not a mapping")
for key in set(spi) - {"version", "builder", "external_links", "metadata"}:
    errors.append(f"unknown top-level key '{key}'")
if spi.get("version") != 1:
    errors.append("version must be 1")
configs = (spi.get("builder") or {}).get("configs")
if not isinstance(configs, list) or not configs:
    errors.append("builder.configs must be a non-empty list")
    configs = []
documented = []
for index, config in enumerate(configs):
    where = f"builder.configs[{index}]"
    if not isinstance(config, dict):
        errors.append(f"{where}: not a mapping")
        continue
    for key in set(config) - CONFIG_KEYS:
        errors.append(f"{where}: unknown key '{key}'")
    platform = config.get("platform")
    if platform is not None and platform not in PLATFORMS:
        errors.append(f"{where}: unknown platform '{platform}'")
    scheme = config.get("scheme")
    if scheme is not None and scheme not in products | targets:
        errors.append(f"{where}: scheme '{scheme}' is no product or target of Package.swift")
    for target in config.get("documentation_targets") or []:
        documented.append(target)
        if target not in targets:
            errors.append(f"{where}: documentation target '{target}' is no target of Package.swift")
        elif not os.path.isdir(f"Sources/{target}/{target}.docc"):
            errors.append(f"{where}: documentation target '{target}' has no Sources/{target}/{target}.docc")
for module in ("FactoryCore", "FactoryScopes", "FactoryWrappers", "FactoryTesting", "FactoryProfiling"):
    if module not in documented:
        errors.append(f"the documentation of {module} is not built (documentation_targets)")
for error in errors:
    print(f"check-spi: .spi.yml: {error}", file=sys.stderr)
if errors:
    sys.exit(1)
print(f"check-spi: .spi.yml is valid: documentation for {', '.join(documented)}; "
      f"platforms {', '.join(c['platform'] for c in configs if 'platform' in c)}")
