"""Schemathesis hooks for feedmill's contract run (scripts/schemathesis.sh sets SCHEMATHESIS_HOOKS).

A filter's `matches` pattern is declared `format: regex`, and feedmill judges it by RE2's dialect
(src/domain/user-pattern.ts, re2js), which is not the dialect Schemathesis generates and checks
`regex` values with. So a generated case is kept only when RE2 agrees with what it claims to be:
- a positive case (every part meant to fit the schema) whose pattern RE2 refuses is dropped: the
  route rightly refuses it with 400;
- a negative case holding a pattern the generator meant as an invalid regex but RE2 accepts is
  dropped: that pattern may be its only violation, and under RE2 it is none.
One operation's negative cases are not run: POST /v1/opml takes an XML document, and XML carries no
JSON types, so what the negative phase calls a wrong type (an outline that is a number) reaches the
route as an outline element like any other, which the import handles outline by outline. The
route's own refusals (nesting, size, not OPML) are tested in test/http/opml*.test.ts.
Every other case runs as generated.
"""

from __future__ import annotations

from typing import Any, Iterator

import jsonschema_rs
import re2
import schemathesis

# RE2's options as re2js compiles a user pattern: case-insensitive, UTF-8.
_OPTIONS = re2.Options()
_OPTIONS.case_sensitive = False
# Refusals are answers here, not errors to print.
_OPTIONS.log_errors = False
_GENERATOR_REGEX = jsonschema_rs.Draft202012Validator({"format": "regex"}, validate_formats=True)


def _patterns(value: Any) -> Iterator[str]:
    """Each `matches` condition's pattern anywhere in a body (webhook filters, keep/block filters)."""
    if isinstance(value, dict):
        if value.get("op") == "matches" and isinstance(value.get("value"), str):
            yield value["value"]
        for child in value.values():
            yield from _patterns(child)
    elif isinstance(value, list):
        for child in value:
            yield from _patterns(child)


def _re2_accepts(pattern: str) -> bool:
    try:
        re2.compile(pattern, options=_OPTIONS)
    except re2.error:
        return False
    return True


def _is_negative(case: Any) -> bool:
    return case.meta is not None and any(info.mode.is_negative for info in case.meta.components.values())


@schemathesis.hook
def filter_case(ctx: Any, case: Any) -> bool:
    negative = _is_negative(case)
    if negative and case.operation.method.upper() == "POST" and case.operation.path == "/v1/opml":
        return False
    patterns = list(_patterns(case.body))
    if not patterns:
        return True
    if not negative:
        return all(_re2_accepts(pattern) for pattern in patterns)
    return not any(not _GENERATOR_REGEX.is_valid(pattern) and _re2_accepts(pattern) for pattern in patterns)
