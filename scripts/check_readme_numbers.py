#!/usr/bin/env python3
"""Checks that the README tells the truth by construction: every measured number in its Results section
(a decimal, a percentage or a ratio such as 1.15x) appears in a report that its paragraph links
(docs/results/.../*.md; a bare `name.md` after a link means the same folder). Exits non-zero naming each
number it cannot find, so a README that drifts from the committed reports fails the tests.
Usage: python3 scripts/check_readme_numbers.py [REPO_DIR]"""
import os
import re
import sys

NUMBER = re.compile(r"(?<![\w.])[+-]?\d[\d,]*\.\d+|(?<![\w.])[+-]?\d[\d,]*(?=\s?[×%])")
LINK = re.compile(r"(docs/results/[\w./-]+\.md)|(?<![\w/.-])([\w-]+\.md)")


def results_section(readme):
    start = readme.find("\n## Results")
    if start < 0:
        return ""
    end = readme.find("\n## ", start + 5)
    return readme[start:end if end > 0 else len(readme)]


def linked_reports(paragraph, repo):
    reports, folder = [], None
    for full, bare in LINK.findall(paragraph):
        if full:
            folder = os.path.dirname(full)
            reports.append(full)
        elif folder:
            reports.append(os.path.join(folder, bare))
    return [r for r in reports if os.path.isfile(os.path.join(repo, r))], reports


def normalize(number):
    return number.replace(",", "").lstrip("+-")


def report_numbers(paths, repo):
    found = set()
    for p in paths:
        with open(os.path.join(repo, p), encoding="utf-8") as f:
            text = f.read()
        found.update(normalize(n) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text))
    return found


def check(repo):
    with open(os.path.join(repo, "README.md"), encoding="utf-8") as f:
        section = results_section(f.read())
    if not section:
        return ["README.md has no '## Results' section"], 0
    problems, checked = [], 0
    for paragraph in section.split("\n\n"):
        numbers = NUMBER.findall(paragraph)
        if not numbers:
            continue
        existing, named = linked_reports(paragraph, repo)
        missing = sorted(set(named) - set(existing))
        if missing:
            problems.append(f"links a report that does not exist: {', '.join(missing)}")
        if not existing:
            problems.append(f"quotes {', '.join(numbers[:4])}... without linking the report they come from: "
                            f"'{paragraph.strip()[:70]}...'")
            continue
        known = report_numbers(existing, repo)
        for n in numbers:
            checked += 1
            if normalize(n) not in known:
                problems.append(f"{n} is in no report its paragraph links ({', '.join(existing)})")
    return problems, checked


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if not os.path.isfile(os.path.join(repo, "README.md")):
        print(f"check_readme_numbers: no README.md in {repo}", file=sys.stderr)
        return 2
    problems, checked = check(repo)
    for p in problems:
        print(p)
    print(f"check_readme_numbers: {checked} numbers checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
