#!/usr/bin/env python3
"""Checks the relative links of the repository's Markdown files: each `[text](path)`
leads to a file or folder that exists, and each `#anchor` (in the same file or another
Markdown file) to a heading there, by GitHub's rule for heading anchors. In a DocC catalog,
an image named without a folder or extension (`![...](name)`) is a file of the catalog."""
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
files = [f for f in subprocess.run(["git", "ls-files", "*.md"], capture_output=True, text=True, check=True)
         .stdout.split() if not f.startswith(".build")]

def anchors(path, cache={}):
    """GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped,
    spaces to hyphens, a repeated one numbered."""
    if path not in cache:
        seen, found, fenced = {}, set(), False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fenced = not fenced
            match = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not match:
                continue
            slug = re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
        cache[path] = found
    return cache[path]

errors = 0
checked = 0
for source in files:
    text = open(source, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # links in code blocks are code
    for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
        if re.match(r"^[a-z]+:", target) or target.startswith(("<", "/")):
            continue  # a URL, mailto:, doc:, or a path on the documentation site
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
        checked += 1
        catalog = next((p for p in re.findall(r"^.*?\.docc(?=/)", source)), None)
        if catalog and path and "/" not in path and "." not in path:
            # DocC names an image by its file name without the extension, wherever it is in the catalog.
            if not any(os.path.splitext(f)[0] == path for _, _, fs in os.walk(catalog) for f in fs):
                print(f"check-links: {source}: ({target}): no {path}.* in {catalog}", file=sys.stderr)
                errors += 1
            continue
        if not os.path.exists(resolved):
            print(f"check-links: {source}: ({target}): {resolved} does not exist", file=sys.stderr)
            errors += 1
        elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
            print(f"check-links: {source}: ({target}): {resolved} has no heading #{anchor}", file=sys.stderr)
            errors += 1
if errors:
    sys.exit(f"check-links: {errors} broken link(s) of {checked}")
print(f"check-links: {checked} relative links in {len(files)} Markdown files lead somewhere")
