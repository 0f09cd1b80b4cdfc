#!/usr/bin/env python3
"""Checks .github/workflows/apple.yml without a Mac.

The workflow cannot run on this project's Linux CI, so what would stop it on its
first line is checked here: the file must parse as YAML, every job that builds
Swift must select an Xcode, and the Swift that Xcode ships (from XCODE_SWIFT
below) must be at least the swift-tools-version of every manifest the job builds
(`swift build|test|run|package` in a `run:` step, with its `--package-path` or
the step's working directory, and `xcodebuild` without `-project`/`-workspace`).
Each finding names the job, the Xcode, its Swift and the manifest.

    scripts/check-apple-workflow.py [WORKFLOW]   # default .github/workflows/apple.yml

Needs PyYAML (scripts/check-apple-workflow.sh installs it when missing).
"""
import os
import re
import shlex
import sys

import yaml

# The Swift each Xcode ships, by Xcode major.minor, as Apple's table lists them
# (https://developer.apple.com/xcode/system-requirements/), to major.minor: a
# tools version is compared on its major.minor. Add a row when the workflow moves
# to an Xcode that is not here: an unknown Xcode fails the check.
XCODE_SWIFT = {
    (16, 0): (6, 0), (16, 1): (6, 0), (16, 2): (6, 0),
    (16, 3): (6, 1), (16, 4): (6, 1),
    (26, 0): (6, 2), (26, 1): (6, 2), (26, 2): (6, 2), (26, 3): (6, 2),
    (26, 4): (6, 3), (26, 5): (6, 3), (26, 6): (6, 3),
}

XCODE_APP = re.compile(r"/Applications/Xcode[_-](\d+)\.(\d+)(?:\.(\d+))?\.app")
TOOLS_VERSION = re.compile(r"^//\s*swift-tools-version\s*:\s*(\d+)\.(\d+)(?:\.(\d+))?")


def version(parts):
    return ".".join(str(part) for part in parts)


def selected_xcode(job, workflow_env):
    """The Xcode a job selects: `xcode-select -s|--switch /Applications/Xcode_X.Y.app`
    in a step, or DEVELOPER_DIR in the workflow's, the job's or a step's env."""
    found = []
    for env in [workflow_env, job.get("env") or {}] + [step.get("env") or {} for step in job.get("steps") or []]:
        match = XCODE_APP.search(str(env.get("DEVELOPER_DIR", "")))
        if match:
            found.append(match)
    for step in job.get("steps") or []:
        for command in commands(step.get("run", "")):
            if command[:1] == ["sudo"]:
                command = command[1:]
            if command[:1] == ["xcode-select"] and len(command) > 2 and command[1] in ("-s", "--switch"):
                match = XCODE_APP.search(command[2])
                if not match:
                    raise SystemExit(f"error: cannot read the Xcode version from `{' '.join(command)}`")
                found.append(match)
    return found[-1] if found else None


def commands(script):
    """The commands of a `run:` script, one list of words each (lines joined at
    trailing backslashes, split at `&&`, `;` and `|`)."""
    script = re.sub(r"\\\n", " ", script or "")
    for line in script.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        for part in re.split(r"&&|\|\||;|\|", line):
            words = shlex.split(part, comments=True)
            if words:
                yield words


def built_packages(job):
    """The package directories a job's steps build, relative to the repository."""
    default_dir = ((job.get("defaults") or {}).get("run") or {}).get("working-directory", ".")
    packages = []
    for step in job.get("steps") or []:
        directory = step.get("working-directory", default_dir)
        for command in commands(step.get("run", "")):
            if command[0] == "swift" and len(command) > 1 and command[1] in ("build", "test", "run", "package"):
                path = directory
                for index, word in enumerate(command):
                    if word == "--package-path" and index + 1 < len(command):
                        path = os.path.join(directory, command[index + 1])
                    elif word.startswith("--package-path="):
                        path = os.path.join(directory, word.split("=", 1)[1])
                packages.append(os.path.normpath(path))
            elif command[0] in ("xcodebuild", "xcrun") and "xcodebuild" in command[:2]:
                if "-project" not in command and "-workspace" not in command:
                    packages.append(os.path.normpath(directory))
    return sorted(set(packages))


def tools_version(manifest):
    with open(manifest, encoding="utf-8") as file:
        match = TOOLS_VERSION.match(file.readline())
    if not match:
        raise SystemExit(f"error: {manifest} does not start with a `// swift-tools-version:` line")
    return tuple(int(part) for part in match.groups() if part is not None)


def main():
    workflow = sys.argv[1] if len(sys.argv) > 1 else ".github/workflows/apple.yml"
    try:
        with open(workflow, encoding="utf-8") as file:
            document = yaml.safe_load(file)
    except yaml.YAMLError as error:
        print(f"error: {workflow} is not valid YAML: {error}")
        return 1
    if not isinstance(document, dict) or not isinstance(document.get("jobs"), dict):
        print(f"error: {workflow} has no jobs")
        return 1
    failures = 0
    for name, job in document["jobs"].items():
        packages = built_packages(job)
        if not packages:
            continue
        match = selected_xcode(job, document.get("env") or {})
        if match is None:
            print(f"error: {workflow}, job {name}: builds {', '.join(packages)} but selects no Xcode "
                  "(the runner image's default changes; select one with xcode-select)")
            failures += 1
            continue
        xcode = (int(match.group(1)), int(match.group(2)))
        xcode_name = version(part for part in match.groups() if part is not None)
        swift = XCODE_SWIFT.get(xcode)
        if swift is None:
            print(f"error: {workflow}, job {name}: Xcode {xcode_name} is not in this check's table "
                  "(scripts/check-apple-workflow.py, XCODE_SWIFT): add the Swift it ships")
            failures += 1
            continue
        for package in packages:
            manifest = os.path.join(package, "Package.swift")
            if not os.path.exists(manifest):
                print(f"error: {workflow}, job {name}: builds {package}, which has no Package.swift")
                failures += 1
                continue
            needed = tools_version(manifest)
            if swift < needed[:2]:
                print(f"error: {workflow}, job {name}: Xcode {xcode_name} ships Swift {version(swift)}, "
                      f"older than {os.path.normpath(manifest)}'s swift-tools-version {version(needed)}")
                failures += 1
            else:
                print(f"ok: {workflow}, job {name}: Xcode {xcode_name} ships Swift {version(swift)}, "
                      f"{os.path.normpath(manifest)} needs swift-tools-version {version(needed)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
