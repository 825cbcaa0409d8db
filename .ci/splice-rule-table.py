#!/usr/bin/env python3
"""Replaces the conformance README's rule table with conformance-tests/target/rule-table.md
(written by ReadmeListsEveryRuleTest), for a developer who changed a rule."""
import pathlib
root = pathlib.Path(__file__).resolve().parent.parent
readme = root / "conformance-tests" / "README.md"
table = (root / "conformance-tests" / "target" / "rule-table.md").read_text()
lines = readme.read_text().split("\n")
start = lines.index("| rule | level | what it demands | if it fails, check |")
end = start
while end < len(lines) and lines[end].startswith("|"):
    end += 1
readme.write_text("\n".join(lines[:start]) + "\n" + table + "\n".join(lines[end:]))
