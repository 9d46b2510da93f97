"""NLBSE long -> multi-label pivot and StackOverflowNER post grouping / type mapping."""

from __future__ import annotations

from seebench.suites.selu.reshape import group_ner_posts, map_entity_types, pivot_long_to_multilabel


def _long_rows() -> list[dict]:
    sentences = {
        10: "returns the number of elements in this list.",
        11: "@author jane",
        12: "use addall instead, see #list.",
    }
    positives = {10: {"summary"}, 11: {"Ownership"}, 12: {"usage", "Pointer"}}
    rows = []
    for category in ("summary", "Ownership", "usage", "Pointer"):
        for sid, text in sentences.items():
            rows.append(
                {
                    "comment_sentence_id": sid,
                    "class": "List.java",
                    "comment_sentence": text,
                    "partition": sid % 2,
                    "category": category,
                    "instance_type": int(category in positives[sid]),
                    "_source": "java",
                }
            )
    return rows


def test_pivot_gives_one_row_per_sentence_with_its_labels_in_first_seen_order() -> None:
    rows = pivot_long_to_multilabel(
        _long_rows(),
        key="comment_sentence_id",
        label="category",
        indicator="instance_type",
        keep=["comment_sentence", "class"],
    )
    assert [r["comment_sentence"] for r in rows] == [
        "returns the number of elements in this list.",
        "@author jane",
        "use addall instead, see #list.",
    ]
    assert [r["target"] for r in rows] == [["summary"], ["Ownership"], ["usage", "Pointer"]]
    assert rows[0]["_source"] == "java" and set(rows[0]) == {
        "comment_sentence",
        "class",
        "_source",
        "target",
    }


def test_pivot_renames_labels_and_keeps_unlabelled_sentences() -> None:
    long = _long_rows()
    for row in long:
        if row["comment_sentence_id"] == 11:
            row["instance_type"] = 0
    rows = pivot_long_to_multilabel(
        long,
        key="comment_sentence_id",
        label="category",
        indicator="instance_type",
        labels={"Pointer": "pointer"},
    )
    assert [r["target"] for r in rows] == [["summary"], [], ["usage", "pointer"]]


def test_ner_sentences_are_joined_into_posts_without_header_lines() -> None:
    rows = [
        {"tokens": ["Question_ID", ":", "1"], "tags": ["O", "O", "O"], "_split": "train"},
        {
            "tokens": ["Question_URL", ":", "https://x/1"],
            "tags": ["O", "O", "O"],
            "_split": "train",
        },
        {"tokens": ["I", "use", "pandas"], "tags": ["O", "O", "B-Library"], "_split": "train"},
        {
            "tokens": ["with", "Python", "3"],
            "tags": ["O", "B-Language", "B-Version"],
            "_split": "train",
        },
        {"tokens": ["Answer_to_Question_ID", ":", "1"], "tags": ["O", "O", "O"], "_split": "train"},
        {"tokens": ["Call", "read_csv"], "tags": ["O", "B-Library_Function"], "_split": "train"},
        {"tokens": ["Question_ID", ":", "2"], "tags": ["O", "O", "O"], "_split": "test"},
    ]
    posts = group_ner_posts(rows)
    assert [p["tokens"] for p in posts] == [
        ["I", "use", "pandas", "with", "Python", "3"],
        ["Call", "read_csv"],
    ]
    assert all(len(p["tokens"]) == len(p["tags"]) for p in posts)
    assert [p["_split"] for p in posts] == ["train", "train"]


def test_entity_types_are_merged_and_dropped_types_become_outside() -> None:
    rows = [{"tags": ["B-Library_Class", "I-Library_Class", "O", "B-Value", "B-Organization"]}]
    mapped = map_entity_types(
        rows, mapping={"Library_Class": "Class", "Value": "O", "Organization": "Website"}
    )
    assert mapped[0]["tags"] == ["B-Class", "I-Class", "O", "O", "B-Website"]
