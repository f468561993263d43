#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CTest docs_current (label unit, well under a second): the repository's design documents stay the
ones the code points to (docs/DESIGN.md, docs/STYLE.md). Fails, naming file and line, when

- a ``DESIGN.md §N`` in the code, tests, build files or Markdown names a section docs/DESIGN.md lacks;
- a ``STYLE.md "heading"`` (quoted text may run over comment lines) names no heading of docs/STYLE.md
  (a heading that starts with the quoted words counts);
- a path in backticks in docs/*.md, rooted at a top-level entry of the repository (``core/...``,
  ``tools/x.sh``, ``CMakeLists.txt``), does not exist (``*`` globs must match something);
- a relative Markdown link in docs/*.md leads to a missing file or to an anchor its target lacks;
- anything points at the old out-of-tree copies (``../shared/DESIGN.md``, ``../shared/STYLE.md``).

Standard library only, so it runs in every build that has tests:
    python3 tests/python/docs_current.py"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs")
SCANNED_DIRS = ["core", "app", "widgets", "tests", "cmake", "tools", "packaging", "docs"]
SCANNED_FILES = ["CMakeLists.txt", "pyproject.toml", "README.md", "HACKING.md"]
SUFFIXES = (".h", ".hpp", ".cpp", ".c", ".py", ".md", ".cmake", ".txt", ".toml", ".sh", ".in")
SKIPPED_DIRS = {"__pycache__", ".git", "build", "corpus", "aotstudio-out"}
MAX_BYTES = 1 << 20
# Comment leaders a quoted heading may run across: "// ", "/// ", " * ", "# ".
_CONTINUATION = re.compile(r"\n[ \t]*(?:///?|\*(?!/)|#)?[ \t]*")
_DESIGN_REF = re.compile(r"DESIGN\.md,?\s*§\s*(\d+)")
_STYLE_REF = re.compile(r"STYLE\.md(?::\s*|\s+)\"([^\"]{1,200})\"")  # a space or colon: not a path string "…STYLE.md", …
_OLD_COPY = re.compile(r"\.\./shared/(?:DESIGN|STYLE)\.md")
_BACKTICK = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PLACEHOLDER = re.compile(r"[<>{}$…]|\.\.\.|\.\./")


def normalize(text: str) -> str:
    return " ".join(text.lower().replace("`", "").split()).rstrip(".:,;")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path: str) -> list:
    with open(path, encoding="utf-8") as f:
        return [m.group(2).strip() for m in re.finditer(r"^(#{1,6})\s+(.+)$", f.read(), re.M)]


def design_sections(path: str) -> set:
    out = set()
    for h in headings(path):
        m = re.match(r"(\d+)\.\s", h)
        if m:
            out.add(int(m.group(1)))
    return out


def scanned_files():
    for name in SCANNED_FILES:
        if os.path.isfile(os.path.join(ROOT, name)):
            yield name
    for top in SCANNED_DIRS:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".partial"))
            for name in sorted(files):
                path = os.path.join(folder, name)
                if name.endswith(SUFFIXES) and os.path.getsize(path) <= MAX_BYTES:
                    yield os.path.relpath(path, ROOT)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def flatten(text: str):
    """``text`` with each line break (and the comment leader after it) as one space, so a quoted
    heading that wraps in a comment reads as one string; and the segments (flat start, original
    start) that map a position back."""
    parts, segments, flat_len, last = [], [], 0, 0
    for m in _CONTINUATION.finditer(text):
        segments.append((flat_len, last))
        parts.append(text[last:m.start()] + " ")
        flat_len += m.start() - last + 1
        last = m.end()
    segments.append((flat_len, last))
    parts.append(text[last:])
    return "".join(parts), segments


def original_offset(segments: list, flat_pos: int) -> int:
    start, orig = max((s for s in segments if s[0] <= flat_pos), default=(0, 0))
    return orig + flat_pos - start


def check_references(sections: set, style_headings: list, counts: dict) -> list:
    problems = []
    wanted = [normalize(h) for h in style_headings]
    for rel in scanned_files():
        if rel == os.path.join("tests", "python", "docs_current.py"):
            continue  # its docstring shows the patterns
        try:
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if "DESIGN.md" not in text and "STYLE.md" not in text:
            continue
        for m in _DESIGN_REF.finditer(text):
            counts["design"] += 1
            if int(m.group(1)) not in sections:
                problems.append(f"{rel}:{line_of(text, m.start())}: cites DESIGN.md §{m.group(1)}, "
                                f"which docs/DESIGN.md does not have (sections {sorted(sections)})")
        for m in _OLD_COPY.finditer(text):
            problems.append(f"{rel}:{line_of(text, m.start())}: points at {m.group(0)} outside the "
                            f"repository; the design is docs/DESIGN.md and docs/STYLE.md")
        flat, segments = flatten(text)
        for m in _STYLE_REF.finditer(flat):
            counts["style"] += 1
            cited = normalize(m.group(1))
            if not any(h == cited or h.startswith(cited) for h in wanted):
                problems.append(f"{rel}:{line_of(text, original_offset(segments, m.start()))}: cites STYLE.md "
                                f"\"{m.group(1)}\", which names no heading of docs/STYLE.md")
    return problems


def path_candidate(span: str, tops: set):
    """The repository path a backtick span names, or None when it is not one (code, a command,
    an output folder, a placeholder)."""
    span = span.strip()
    if " " in span or _PLACEHOLDER.search(span) or "://" in span or span.startswith("/"):
        return None
    first = span.split("/", 1)[0]
    if first not in tops:
        return None
    if "/" not in span and "." not in span:
        return None  # a bare word such as `tools` or `docs`
    return span


def check_docs(counts: dict) -> list:
    problems = []
    tops = set(os.listdir(ROOT)) - {"build", ".git", ".venv"}
    for doc in sorted(glob.glob(os.path.join(DOCS, "*.md"))):
        rel_doc = os.path.relpath(doc, ROOT)
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for m in _BACKTICK.finditer(text):
            path = path_candidate(m.group(1), tops)
            if path is None:
                continue
            counts["paths"] += 1
            full = os.path.join(ROOT, path)
            found = glob.glob(full) if "*" in path else ([full] if os.path.exists(full) else [])
            if not found:
                problems.append(f"{rel_doc}:{line_of(text, m.start())}: `{path}` does not exist")
        for m in _LINK.finditer(text):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            file_part, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(doc), file_part)) if file_part else doc
            if not os.path.exists(full):
                problems.append(f"{rel_doc}:{line_of(text, m.start())}: link to {target}: no such file")
            elif anchor and full.endswith(".md") and anchor not in {slug(h) for h in headings(full)}:
                problems.append(f"{rel_doc}:{line_of(text, m.start())}: link to {target}: "
                                f"{os.path.relpath(full, ROOT)} has no heading with anchor #{anchor}")
    return problems


def main() -> int:
    design, style = os.path.join(DOCS, "DESIGN.md"), os.path.join(DOCS, "STYLE.md")
    missing = [p for p in (design, style) if not os.path.isfile(p)]
    if missing:
        print("docs_current: missing " + ", ".join(os.path.relpath(p, ROOT) for p in missing), file=sys.stderr)
        return 1
    counts = {"design": 0, "style": 0, "paths": 0}
    problems = check_references(design_sections(design), headings(style), counts) + check_docs(counts)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"docs_current: {len(problems)} problem(s); fix the reference or the document in docs/ "
              "(docs/DESIGN.md keeps the section numbers comments cite, docs/STYLE.md the headings)",
              file=sys.stderr)
        return 1
    print(f"docs_current: {counts['design']} DESIGN.md and {counts['style']} STYLE.md references, "
          f"{counts['paths']} paths in docs/*.md: all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
