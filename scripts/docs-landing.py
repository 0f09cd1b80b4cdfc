#!/usr/bin/env python3
"""Gives the merged documentation site a front page.

    scripts/docs-landing.py MERGED.doccarchive LANDING.doccarchive MODULE...

`docc merge` synthesizes the site's landing page (data/documentation.json) with a
title and one card per module, in alphabetical order. This replaces its abstract
and content with those of the landing article (Documentation/Factory.docc, converted
to LANDING.doccarchive), adds the references they use, and orders the module cards
as MODULE... (the layers, bottom up, then FactoryProfiling).
"""
import json
import sys


def main():
    merged, landing, order = sys.argv[1], sys.argv[2], sys.argv[3:]
    page_path = f"{merged}/data/documentation.json"
    with open(page_path, encoding="utf-8") as f:
        page = json.load(f)
    with open(f"{landing}/data/documentation/factory.json", encoding="utf-8") as f:
        article = json.load(f)

    page["abstract"] = article.get("abstract", [])
    page["primaryContentSections"] = article.get("primaryContentSections", [])
    page.setdefault("references", {})
    for key, value in article.get("references", {}).items():
        page["references"].setdefault(key, value)

    def rank(identifier):
        name = identifier.rstrip("/").rsplit("/", 1)[-1].lower()
        lowered = [module.lower() for module in order]
        return lowered.index(name) if name in lowered else len(order)

    for section in page.get("topicSections", []):
        section["identifiers"] = sorted(section.get("identifiers", []), key=rank)
        if section.get("title") in (None, "", "Modules"):
            section["title"] = "The layers, bottom up, and FactoryProfiling"

    with open(page_path, "w", encoding="utf-8") as f:
        json.dump(page, f)


if __name__ == "__main__":
    sys.exit(main())
