#!/usr/bin/env python3
"""Checks the house rules of src/ from the includes alone, and exits non-zero naming every breach:
  - a room (folder) includes only itself and the rooms below it in FLOORS;
  - no include loop between files;
  - no .cpp is over MAX_CPP_LINES lines and no function over MAX_FUNCTION_LINES (a function is a body that
    opens at the end of a line starting in column 0 and closes at a '}' in column 0).
The sizes fail the check only with --strict (what the tests run); without it they are listed as "size:"
lines, for a look at a tree in the middle of a change.
Usage: python3 scripts/check_includes.py [--strict] [SRC_DIR]"""
import os
import re
import sys

# The rooms from the ground floor up: each may include only the rooms before it (and itself).
FLOORS = ["common", "workload", "workload/ops", "schedule", "lower", "measure", "store", "farm", "baseline", "search",
          "features", "world", "model", "dataset", "train", "study", "cli"]
MAX_CPP_LINES = 600
MAX_FUNCTION_LINES = 120
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def project_files(src):
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith((".h", ".cpp")):
                path = os.path.join(root, name)
                yield os.path.relpath(path, src).replace(os.sep, "/"), path


def includes_of(path, known):
    with open(path, encoding="utf-8") as f:
        return [inc for inc in INCLUDE.findall(f.read()) if inc in known]


def floor_breaches(graph):
    rank = {room: i for i, room in enumerate(FLOORS)}
    out = []
    for f, incs in sorted(graph.items()):
        room = os.path.dirname(f)
        if room not in rank:
            out.append(f"{f}: room '{room}' has no floor in FLOORS")
            continue
        for inc in incs:
            to = os.path.dirname(inc)
            if to in rank and rank[to] > rank[room]:
                out.append(f"{f} includes {inc}: '{room}' reaches up to '{to}'")
    return out


def file_loops(graph):
    state, stack, out = {}, [], []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for inc in graph.get(f, []):
            if state.get(inc) == 1:
                out.append(" -> ".join(stack[stack.index(inc):] + [inc]))
            elif inc not in state:
                visit(inc)
        stack.pop()
        state[f] = 2

    for f in sorted(graph):
        if f not in state:
            visit(f)
    return [f"include loop: {loop}" for loop in out]


def long_functions(rel, lines):
    out, start = [], None
    for i, line in enumerate(lines):
        if start is None and line[:1] not in ("", " ", "\t", "#", "/", "}") and line.rstrip().endswith("{") \
                and not re.match(r"(namespace|struct|class|enum|union)\b", line) and "(" in line:
            start = i
        elif start is not None and line.startswith("}"):
            if i - start + 1 > MAX_FUNCTION_LINES:
                out.append(f"{rel}:{start + 1}: function of {i - start + 1} lines (at most {MAX_FUNCTION_LINES})")
            start = None
    return out


def size_breaches(files):
    out = []
    for rel, path in files.items():
        if not rel.endswith(".cpp"):
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if len(lines) - 1 > MAX_CPP_LINES:
            out.append(f"{rel}: {len(lines) - 1} lines (at most {MAX_CPP_LINES})")
        out += long_functions(rel, lines)
    return sorted(out)


def main():
    args = [a for a in sys.argv[1:] if a != "--strict"]
    strict = len(args) < len(sys.argv) - 1
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    if not os.path.isdir(src):
        print(f"check_includes: {src} is not a directory", file=sys.stderr)
        return 2
    files = dict(project_files(src))
    graph = {rel: includes_of(path, files) for rel, path in files.items()}
    problems = floor_breaches(graph) + file_loops(graph)
    sizes = size_breaches(files)
    for p in problems:
        print(p)
    for p in sizes:
        print("size:", p)
    if strict:
        problems += sizes
    print(f"check_includes: {len(files)} files, {sum(map(len, graph.values()))} includes, {len(problems)} problems, "
          f"{len(sizes)} size breaches{'' if strict else ' (not enforced without --strict)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
