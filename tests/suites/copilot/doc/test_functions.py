"""Finding functions and comments by rows: one query gives what two did."""

from __future__ import annotations

import pytest

from seebench.suites.copilot.doc.checks import region_nodes
from seebench.suites.copilot.doc.functions import (
    COMMENT_TYPES,
    function_at,
    functions_in,
    nodes_of,
    scan_rows,
    spanning,
    walk,
)
from seebench.suites.copilot.languages import parser
from tests.suites.copilot.doc.cases import CASES, case_json

LANGUAGES = sorted(CASES)


def _tree(language: str):
    return parser(language).parse(CASES[language]["file"].encode("utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_scan_finds_the_functions_and_comments_of_two_queries(language):
    root = _tree(language).root_node
    rows = root.end_point[0]
    for first in range(rows + 1):
        for last in range(first, rows + 1):
            scan = scan_rows(root, language, first, last)
            assert scan.functions == functions_in(root, language, first, last)
            assert scan.comments == nodes_of(root, language, COMMENT_TYPES, first, last)
            assert spanning(scan.functions, first, last) == function_at(root, language, first, last)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_region_is_the_largest_nodes_within_the_rows(language):
    root = _tree(language).root_node
    first, last = case_json(language)["line_range"]
    region = region_nodes(root, first, last)
    inside = [n for n in walk(root) if n.start_point[0] >= first and n.end_point[0] <= last]
    assert region and all(n in inside for n in region)
    # every node within the rows lies in one of the region's nodes
    assert all(
        any(r.start_byte <= n.start_byte and n.end_byte <= r.end_byte for r in region)
        for n in inside
    )
    assert [n.start_byte for n in region] == sorted(n.start_byte for n in region)
