"""Turns Python feedparser's test documents into a feed corpus (schema feed-corpus/v1).

Each feedparser test document carries its assertion in a comment, as a Python expression over
feedparser's result: `Expect: not bozo and entries[0]['title'] == 'Example'`. This reads that
expression with Python's own parser (ast), keeps the `==` comparisons on fields feedmill has,
and writes the document with an expected file beside it, so bench/feed-corpus-score.ts scores
it like the shared corpus. Nothing is evaluated but the literal on the right of `==`.

    python3 bench/feedparser-suite/convert.py TESTS_DIR OUT_DIR
"""

import ast
import calendar
import json
import pathlib
import re
import sys
import time

ASSERTION = re.compile(r"Description:\s*(.*?)\s*Expect:\s*(.*?)\s*-->", re.S)
HEADER = re.compile(r"^Header:\s+([^:]+):(.*)$", re.M)

# feedparser's keys → the corpus field they assert. feedparser calls an RSS description, an Atom
# summary and an Atom 0.3 tagline by several names that mean the same thing. Enclosures are left
# out: feedparser asserts one attribute of one, and the corpus compares whole lists.
FEED_FIELDS = {
    ("title",): "title",
    ("title_detail", "value"): "title",
    ("subtitle",): "description",
    ("subtitle_detail", "value"): "description",
    ("tagline",): "description",
    ("tagline_detail", "value"): "description",
    ("description",): "description",
    ("link",): "link",
    ("icon",): "icon",
    ("image", "href"): "icon",
}
ITEM_FIELDS = {
    ("title",): "title",
    ("title_detail", "value"): "title",
    ("link",): "url",
    ("id",): "id",
    ("guid",): "id",
    ("summary",): "summary",
    ("summary_detail", "value"): "summary",
    ("description",): "summary",
    ("content", 0, "value"): "content",
    ("published_parsed",): "date_published",
    ("author_detail", "name"): "author",
    ("media_thumbnail", 0, "url"): "thumbnail",
    ("image", "href"): "thumbnail",
}


def document_text(data: bytes) -> str:
    """The document as text, to read its comment: the BOM or the first `<` says how it is written."""
    for head, encoding in (
        (b"\x00\x00\xfe\xff", "utf-32-be"),
        (b"\xff\xfe\x00\x00", "utf-32-le"),
        (b"\x00\x00\x00\x3c", "utf-32-be"),
        (b"\x3c\x00\x00\x00", "utf-32-le"),
        (b"\xfe\xff", "utf-16-be"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\x00\x3c", "utf-16-be"),
        (b"\x3c\x00", "utf-16-le"),
    ):
        if data.startswith(head):
            return data.decode(encoding, errors="ignore")
    return data.decode("utf-8", errors="ignore")


def key_path(node: ast.expr) -> list | None:
    """`entries[0]['title']` or `entries[0].title` as ['entries', 0, 'title']; None for anything else."""
    keys: list = []
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Attribute):
            keys.append(node.attr)
        else:
            try:
                keys.append(ast.literal_eval(node.slice))
            except ValueError:
                return None
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    keys.append(node.id)
    return list(reversed(keys))


def literal(node: ast.expr):
    """A literal, including the string concatenations some assertions use; None when it is not one."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal(node.left), literal(node.right)
        return left + right if isinstance(left, str) and isinstance(right, str) else None
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError):
        return None


def iso_instant(value) -> str | None:
    """A time.struct_time tuple as the corpus writes dates (UTC, milliseconds)."""
    if not isinstance(value, tuple) or len(value) < 6:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(calendar.timegm(value[:6] + (0, 0, 0))))


def expectations(expression: str) -> tuple[dict, dict]:
    """The feed fields and the items' fields (by index) that the expression asserts."""
    try:
        tree = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return {}, {}
    clauses = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    feed: dict = {}
    items: dict = {}
    for clause in clauses:
        if not (isinstance(clause, ast.Compare) and len(clause.ops) == 1 and isinstance(clause.ops[0], ast.Eq)):
            continue
        keys = key_path(clause.left)
        value = literal(clause.comparators[0])
        if not keys or value is None:
            continue
        if keys[0] == "feed" and tuple(keys[1:]) in FEED_FIELDS and isinstance(value, str):
            feed[FEED_FIELDS[tuple(keys[1:])]] = value
            continue
        if keys[0] != "entries" or len(keys) < 3 or not isinstance(keys[1], int):
            continue
        item = items.setdefault(keys[1], {"index": keys[1]})
        rest = tuple(keys[2:])
        if len(rest) == 3 and rest[0] == "tags" and rest[2] == "term" and isinstance(value, str):
            # Tags are asserted one at a time; a list is kept only when no position is missing (below).
            tags = item.setdefault("categories", [])
            tags.extend([None] * (rest[1] + 1 - len(tags)))
            tags[rest[1]] = value
            continue
        field = ITEM_FIELDS.get(rest)
        if field == "date_published":
            instant = iso_instant(value)
            if instant is not None:
                item[field] = instant
        elif field == "author" and isinstance(value, str):
            item["authors"] = [{"name": value}]
        elif field is not None and isinstance(value, str):
            item[field] = value
    for item in items.values():
        if None in item.get("categories", []):
            del item["categories"]
    return feed, {index: item for index, item in items.items() if len(item) > 1}


def convert(path: pathlib.Path, suite: str, out: pathlib.Path) -> bool:
    data = path.read_bytes()
    text = document_text(data)
    match = ASSERTION.search(text)
    if match is None:
        return False
    headers = {name.strip().lower(): value.strip() for name, value in HEADER.findall(text)}
    # Assertions on the address the test server fetched the document from cannot hold without it.
    if "127.0.0.1:8097" in match.group(2):
        return False
    feed, items = expectations(match.group(2))
    if not feed and not items:
        return False
    name = f"{suite}__{path.stem}"
    (out / f"{name}.xml").write_bytes(data)
    case = {
        "schema": "feed-corpus/v1",
        "id": name,
        "document": f"{name}.xml",
        "suite": suite,
        "description": match.group(1),
        "feed": feed,
        "items": [items[index] for index in sorted(items)],
    }
    served = {name: headers[name.lower()] for name in ("Content-Type", "Content-Location") if name.lower() in headers}
    if served:
        case["http_headers"] = served
    (out / f"{name}.expected.json").write_text(json.dumps(case, ensure_ascii=False, indent=1), encoding="utf-8")
    return True


def main(tests: pathlib.Path, out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(tests.rglob("*.xml")):
        parts = path.relative_to(tests).parts
        # wellformed/rss/x.xml is suite feedparser-rss; encoding/x.xml is feedparser-encoding.
        group = parts[1] if parts[0] == "wellformed" and len(parts) > 2 else parts[0]
        written += convert(path, f"feedparser-{group}", out)
    print(f"feedparser suite: {written} documents with assertions on feedmill's fields, in {out}", file=sys.stderr)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
