"""SELU text cleaning on realistic issue, Jira and forum texts."""

from __future__ import annotations

from seebench.suites.selu.text import clean_columns, clean_text, mask_code, mask_identifiers

GITHUB_ISSUE = """## Bug report

**Describe the bug**
Running `pip install -e .` on Windows fails since a1b2c3d4e5f60718293a4b5c6d7e8f9012345678.

Steps:
1. Clone https://github.com/example/project.git
2. Run the command below

```python
import project
project.main(url="https://internal.example.com/api")
```

cc @jane-doe @ci_bot — see [the contributing guide](https://example.com/docs/contributing_(dev).html)
"""

JIRA_ISSUE = """h2. Problem
When {{MapReduce}} jobs run on YARN the *container* is killed:
{code:java}
public void run() { throw new IllegalStateException("boom"); }
{code}
{noformat}
2019-01-01 12:00:00 ERROR Container killed
{noformat}
Assigned to [~jsmith]; duplicate of [HADOOP-1234|https://issues.apache.org/jira/browse/HADOOP-1234].
{color:red}Urgent{color} ---- bq. quoted text
"""

SO_POST = """<p>I tried <code>list.sort()</code> but got &quot;TypeError&quot;.</p>
<pre><code>a = [3, 1, 2]
a.sort(key=None)
</code></pre>
<p>See <a href="https://docs.python.org/3/howto/sorting.html">the docs</a> &amp; <b>please</b> help.<br/>
Thanks!</p>"""


def test_github_issue_masks_code_urls_hashes_and_mentions() -> None:
    cleaned = clean_text(GITHUB_ISSUE)
    assert cleaned == (
        "Bug report Describe the bug Running pip install -e . on Windows fails since [HASH]. "
        "Steps: Clone [URL] Run the command below [CODE] cc [USER] [USER] — see the contributing guide"
    )


def test_jira_markup_is_stripped_and_code_masked() -> None:
    cleaned = clean_text(JIRA_ISSUE)
    assert "IllegalStateException" not in cleaned and "ERROR Container" not in cleaned
    assert cleaned.count("[CODE]") == 2
    assert cleaned.startswith("Problem When MapReduce jobs run on YARN the container is killed:")
    assert "Assigned to [USER]; duplicate of HADOOP-1234." in cleaned
    assert "{color" not in cleaned and "Urgent" in cleaned and "h2." not in cleaned


def test_stack_overflow_html_is_stripped() -> None:
    cleaned = clean_text(SO_POST)
    assert cleaned == (
        'I tried list.sort() but got "TypeError". [CODE] See the docs & please help. Thanks!'
    )


def test_plain_text_keeps_emails_identifiers_and_short_hex() -> None:
    text = "Mail dev@example.org about my_var_name, snake_case_value and commit abc1234."
    assert clean_text(text) == text


def test_only_40_hex_hashes_are_masked() -> None:
    assert mask_identifiers("sha " + "f" * 40 + " and " + "f" * 39) == "sha [HASH] and " + "f" * 39
    assert mask_identifiers("id " + "a" * 41) == "id " + "a" * 41


def test_indented_block_of_two_lines_is_code_but_single_indented_line_is_not() -> None:
    assert "[CODE]" in mask_code("Output:\n    line one\n    line two\nend")
    assert "[CODE]" not in mask_code("Output:\n    only one line\nend")


def test_whitespace_and_excel_line_breaks_are_normalised() -> None:
    text = "public int size()_x000D__x000D_\n_x000D_\nReturns   the\tsize."
    assert clean_text(text) == "public int size() Returns the size."


def test_none_becomes_empty_text() -> None:
    assert clean_text(None) == ""


def test_clean_columns_strips_quote_debris_and_names_a_missing_column() -> None:
    rows = [{"input": "'The system shall log in users.'", "target": 1}]
    assert clean_columns(rows, columns=["input"], strip="'\"")[0]["input"] == (
        "The system shall log in users."
    )
    try:
        clean_columns([{"text": "x"}], columns=["input"])
    except KeyError as exc:
        assert "'input'" in str(exc) and "text" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("missing column not reported")


def test_javadoc_tags_are_not_mentions_and_markdown_escapes_are_removed() -> None:
    text = (
        r"public int size() Returns: c \- the size, see @link #length and @param n; thanks @octocat"
    )
    assert clean_text(text) == (
        "public int size() Returns: c - the size, see @link #length and @param n; thanks [USER]"
    )
