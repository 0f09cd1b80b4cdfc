#!/usr/bin/env python3
"""Fails when a code name in backticks in the prose names nothing.

    scripts/check-doc-names.py            # README.md, RELIABILITY.md, CONTRIBUTING.md, Sources/README.md,
                                          # Benchmarks/README.md, every DocC article
    scripts/check-doc-names.py FILE.md    # those files only

A code name is an inline code span (not a fenced block, not a DocC ``link``, which docc checks) of one of these
forms: `Type`, `Type.member` (any depth), `member(label:)`, `Type.member(label:)`, `Type.init(label:)`, or a file name
`Name.swift` or `NAME.md`. It must name something declared in Sources, Tests, Examples, Benchmarks or Plugins: every part of a
dotted name is declared somewhere, a function reference has a declaration with those argument labels, and a file
exists. Names that are not this package's (Swift's, Factory's, other libraries') are listed in
scripts/doc-names-allow.txt, one per line; a line may hold a prefix ending in `.` (e.g. `Task.`).
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
os.chdir(ROOT)

DOCS = ["README.md", "RELIABILITY.md", "CONTRIBUTING.md", "Sources/README.md", "Benchmarks/README.md"]
DOCS += sorted(glob.glob("Sources/*/*.docc/**/*.md", recursive=True))
DOCS += sorted(glob.glob("Documentation/*.docc/**/*.md", recursive=True))
SOURCE_DIRS = ["Sources", "Tests", "Examples", "Benchmarks", "Plugins"]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
TYPE_NAME = re.compile(rf"^[A-Z][A-Za-z0-9_]*(\.{IDENT})*$")
FUNCTION = re.compile(rf"^(?:([A-Z][A-Za-z0-9_]*(?:\.{IDENT})*)\.)?({IDENT})\(((?:{IDENT}:)*)\)$")
FILE = re.compile(r"^[A-Za-z0-9_+\-]+\.(swift|md)$")


def swift_files():
    for top in SOURCE_DIRS:
        for path in glob.glob(f"{top}/**/*.swift", recursive=True):
            if "/.build" in path:
                continue
            yield path


def declarations():
    """Every declared name, every file name, and the argument-label lists of every function and initializer."""
    names, files, labels = set(), set(), {}
    decl = re.compile(
        rf"\b(?:class|struct|enum|protocol|actor|typealias|associatedtype|func|var|let|case|macro)\s+`?({IDENT})`?")
    cases = re.compile(rf"\bcase\s+((?:{IDENT}(?:\([^)]*\))?\s*(?:=\s*[^,\n]+)?,\s*)*{IDENT})")
    function = re.compile(rf"\b(func\s+`?({IDENT})`?|init[?!]?|subscript)\s*(<[^>{{]*>)?\s*\(")
    for path in swift_files():
        files.add(os.path.basename(path))
    files.update(os.path.basename(p) for p in glob.glob("**/*.md", recursive=True) if "/.build" not in p)
    names.update(entry for entry in os.listdir(".") if os.path.isdir(entry))  # `Sources`, `Tests`, ...
    for path in swift_files():
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        names.update(decl.findall(text))
        for match in cases.finditer(text):
            names.update(re.findall(rf"({IDENT})(?=\s*(?:\(|=|,|$))", match.group(1)))
        for match in function.finditer(text):
            name = match.group(2) or match.group(1).rstrip("?!")
            params = balanced(text, match.end() - 1)
            labels.setdefault(name, []).append(argument_labels(params))
    # Targets and products are names too: `FactoryKit`, `FactoryStress`.
    for manifest in glob.glob("**/Package.swift", recursive=True):
        if "/.build" not in manifest:
            names.update(re.findall(r'name:\s*"([A-Za-z0-9_]+)"', open(manifest, encoding="utf-8").read()))
    return names, files, labels


def balanced(text, start):
    """The text inside the parentheses that open at `start`."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1 : index]
    return ""


def argument_labels(params):
    parts, depth, current = [], 0, ""
    for index, char in enumerate(params):
        if char in "([<":
            depth += 1
        elif char in ")]>" and not (char == ">" and params[index - 1 : index] == "-"):  # `->` closes nothing
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    labels = []
    for part in parts:
        head = part.split(":")[0].strip().split()
        head = [word for word in head if not word.startswith("@")]
        if not head:
            continue
        kind = part.split(":", 1)[1] if ":" in part else ""
        # A parameter a reference may leave out: one with a default, or a trailing closure.
        optional = "=" in kind or "->" in kind.split("=")[0] or "..." in kind
        labels.append((head[0].strip("`"), optional))
    return labels


def matches(wanted, declared):
    """`wanted` names the declared labels in order, leaving out only defaulted or closure parameters."""
    index = 0
    for label, optional in declared:
        if index < len(wanted) and wanted[index] == label:
            index += 1
        elif not optional:
            return False
    return index == len(wanted)


def code_spans(path):
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", line):
            yield number, span.strip()


def main(paths):
    names, files, labels = declarations()
    allowed = set()
    allow = os.path.join("scripts", "doc-names-allow.txt")
    for line in open(allow, encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line:
            allowed.add(line)

    def is_allowed(span):
        return span in allowed or any(p.endswith(".") and span.startswith(p) for p in allowed)

    failures = []
    for path in paths:
        for number, span in code_spans(path):
            if is_allowed(span) or re.fullmatch(r"[A-Z][A-Z0-9_]+", span):  # a constant or environment variable
                continue
            problem = None
            if FILE.match(span):
                if span not in files:
                    problem = "no such file"
            elif (match := FUNCTION.match(span)):
                owner, name, given = match.group(1), match.group(2), match.group(3)
                wanted = tuple(label for label in given.split(":") if label)
                missing = [part for part in (owner.split(".") if owner else []) if part not in names]
                if missing:
                    problem = f"{', '.join(missing)} declared nowhere"
                elif name not in labels and name not in names:
                    problem = f"{name} declared nowhere"
                elif name in labels and not any(matches(wanted, declared) for declared in labels[name]):
                    problem = f"no {name} takes ({''.join(l + ':' for l in wanted)})"
            elif TYPE_NAME.match(span):
                missing = [part for part in span.split(".") if part not in names]
                if missing:
                    problem = f"{', '.join(missing)} declared nowhere"
            if problem:
                failures.append(f"{path}:{number}: `{span}`: {problem}")
    for failure in failures:
        print(failure)
    if failures:
        print(f"check-doc-names: {len(failures)} code names name nothing (if a name is not this package's, add it to "
              f"{allow})")
        return 1
    print(f"check-doc-names: every code name in {len(paths)} files names something")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or [p for p in DOCS if os.path.exists(p)]))
