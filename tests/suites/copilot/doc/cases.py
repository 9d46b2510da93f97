"""Hand-made doc cases, one per language: a file, the focal function's line range, and
answers that each break one check (``good`` passes them all)."""

from __future__ import annotations

PYTHON_FILE = """import os


class Store:
    def get(self, key, default=None):
        value = self.data.get(key)
        if value is None:
            return default
        return value
"""
PYTHON_DOC = '''    """Look up a key.

    Args:
        key: the key to find.
        default: what to give back when the key is missing.

    Returns:
        The stored value, or ``default``.
    """
'''
PYTHON_BODY = """    value = self.data.get(key)
    if value is None:
        return default
    return value"""

JS_FILE = """const cache = {};

function lookup(key, fallback) {
  const value = cache[key];
  if (value === undefined) {
    return fallback;
  }
  return value;
}
"""
JS_BODY = """function lookup(key, fallback) {
  const value = cache[key];
  if (value === undefined) {
    return fallback;
  }
  return value;
}"""

TS_FILE = """interface Options {
  scale: number;
}

export function total(items: number[], { scale }: Options = { scale: 1 }): number {
  let sum = 0;
  for (const item of items) {
    sum += item;
  }
  return sum * scale;
}
"""
TS_BODY = """export function total(items: number[], { scale }: Options = { scale: 1 }): number {
  let sum = 0;
  for (const item of items) {
    sum += item;
  }
  return sum * scale;
}"""

JAVA_FILE = """public class Maths {
    public static int clamp(int value, int low, int high) {
        if (value < low) {
            return low;
        }
        return Math.min(value, high);
    }
}
"""
JAVA_BODY = """public static int clamp(int value, int low, int high) {
    if (value < low) {
        return low;
    }
    return Math.min(value, high);
}"""

CSHARP_FILE = """namespace Demo
{
    public class Maths
    {
        public static int Clamp(int value, int low, int high)
        {
            if (value < low)
            {
                return low;
            }
            return Math.Min(value, high);
        }
    }
}
"""
CSHARP_BODY = """public static int Clamp(int value, int low, int high)
{
    if (value < low)
    {
        return low;
    }
    return Math.Min(value, high);
}"""

CPP_FILE = """#include <algorithm>

int Maths::clamp(int value, int low, int high) const {
    if (value < low) {
        return low;
    }
    return std::min(value, high);
}
"""
CPP_BODY = """int Maths::clamp(int value, int low, int high) const {
    if (value < low) {
        return low;
    }
    return std::min(value, high);
}"""

JSDOC = """/**
 * Looks up a key in the cache.
 * @param {string} key - The key to find.
 * @param {*} fallback - Given back when the key is missing.
 * @returns {*} The cached value or the fallback.
 */
"""
TSDOC = """/**
 * Adds up the items, scaled.
 * @param items - The numbers to add.
 * @param options - How to scale the sum.
 * @returns The scaled sum.
 */
"""
JAVADOC = """/**
 * Clamps a value into a range.
 *
 * @param value the value to clamp
 * @param low the lower bound
 * @param high the upper bound
 * @return the clamped value
 */
"""
XMLDOC = """/// <summary>Clamps a value into a range.</summary>
/// <param name="value">The value to clamp.</param>
/// <param name="low">The lower bound.</param>
/// <param name="high">The upper bound.</param>
/// <returns>The clamped value.</returns>
"""
DOXYGEN = """/**
 * @brief Clamps a value into a range.
 * @param value the value to clamp
 * @param low the lower bound
 * @param high the upper bound
 * @return the clamped value
 */
"""


def _py(
    doc: str, body: str = PYTHON_BODY, header: str = "def get(self, key, default=None):"
) -> str:
    return f"{header}\n{doc}{body}"


CASES: dict[str, dict] = {
    "python": {
        "file": PYTHON_FILE,
        "range": [4, 8],
        "answers": {
            "good": _py(PYTHON_DOC),
            "syntax": _py('    """Look up a key.\n    :param key: the key\n'),
            "found": _py(PYTHON_DOC, header="def fetch(self, key, default=None):"),
            "placement": "# Look up a key (key, default); returns the value.\n" + _py(""),
            "description": _py(
                '    """\n    :param key: the key.\n    :param default: the fallback.\n'
                '    :returns: the value.\n    """\n'
            ),
            "params": _py(
                '    """Look up a key.\n\n    :param key: the key.\n    :returns: the value.\n    """\n'
            ),
            "returns": _py(
                '    """Look up a key.\n\n    :param key: the key.\n    :param default: the fallback.\n    """\n'
            ),
            "unchanged": _py(
                PYTHON_DOC, PYTHON_BODY.replace("return value", "return value or default")
            ),
        },
    },
    "javascript": {
        "file": JS_FILE,
        "range": [2, 8],
        "answers": {
            "good": JSDOC + JS_BODY,
            "syntax": "/**\n * Looks up a key.\n" + JS_BODY,
            "found": JSDOC + JS_BODY.replace("lookup", "find"),
            "placement": "// Looks up key; fallback when missing; returns the value.\n" + JS_BODY,
            "description": JSDOC.replace(" * Looks up a key in the cache.\n", "") + JS_BODY,
            "params": JSDOC.replace(
                " * @param {*} fallback - Given back when the key is missing.\n", ""
            )
            + JS_BODY,
            "returns": JSDOC.replace(" * @returns {*} The cached value or the fallback.\n", "")
            + JS_BODY,
            "unchanged": JSDOC
            + JS_BODY.replace("const value = cache[key];", "const value = cache[key]"),
        },
    },
    "typescript": {
        "file": TS_FILE,
        "range": [4, 10],
        "answers": {
            "good": TSDOC + TS_BODY,
            "syntax": TSDOC + TS_BODY.replace("sum += item;\n  }", "sum += item;\n"),
            "found": TSDOC + TS_BODY.replace("total", "sum"),
            "placement": "/* Adds up items (options scale the sum); returns the sum. */\n"
            + TS_BODY,
            "description": TSDOC.replace(" * Adds up the items, scaled.\n", "") + TS_BODY,
            "params": TSDOC.replace(" * @param options - How to scale the sum.\n", "") + TS_BODY,
            "returns": TSDOC.replace(" * @returns The scaled sum.\n", "") + TS_BODY,
            "unchanged": TSDOC + TS_BODY.replace("let sum = 0;", "let sum: number = 0;"),
        },
    },
    "java": {
        "file": JAVA_FILE,
        "range": [1, 6],
        "answers": {
            "good": JAVADOC + JAVA_BODY,
            "syntax": JAVADOC + JAVA_BODY.replace("return low;", "return low"),
            "found": JAVADOC + JAVA_BODY.replace("clamp", "bound"),
            "placement": JAVADOC.replace("/**", "/*") + JAVA_BODY,
            "description": JAVADOC.replace(" * Clamps a value into a range.\n *\n", "") + JAVA_BODY,
            "params": JAVADOC.replace(" * @param high the upper bound\n", "") + JAVA_BODY,
            "returns": JAVADOC.replace(" * @return the clamped value\n", "") + JAVA_BODY,
            "unchanged": JAVADOC + JAVA_BODY.replace("int value,", "long value,"),
        },
    },
    "csharp": {
        "file": CSHARP_FILE,
        "range": [4, 11],
        "answers": {
            "good": XMLDOC + CSHARP_BODY,
            "syntax": XMLDOC + CSHARP_BODY.replace("return low;\n    }", "return low;\n"),
            "found": XMLDOC + CSHARP_BODY.replace("Clamp(", "Bound("),
            "placement": JAVADOC + CSHARP_BODY,
            "description": XMLDOC.replace(
                "/// <summary>Clamps a value into a range.</summary>\n", ""
            )
            + CSHARP_BODY,
            "params": XMLDOC.replace('/// <param name="low">The lower bound.</param>\n', "")
            + CSHARP_BODY,
            "returns": XMLDOC.replace("/// <returns>The clamped value.</returns>\n", "")
            + CSHARP_BODY,
            "unchanged": XMLDOC + CSHARP_BODY.replace("value < low", "value <= low"),
        },
    },
    "cpp": {
        "file": CPP_FILE,
        "range": [2, 7],
        "answers": {
            "good": DOXYGEN + CPP_BODY,
            "syntax": DOXYGEN + CPP_BODY.replace("return low;\n    }", "return low;\n"),
            "found": DOXYGEN + CPP_BODY.replace("Maths::clamp", "Maths::bound"),
            "placement": "// Clamps value into [low, high] and returns it.\n" + CPP_BODY,
            "description": DOXYGEN.replace(" * @brief Clamps a value into a range.\n", "")
            + CPP_BODY,
            "params": DOXYGEN.replace(" * @param value the value to clamp\n", "") + CPP_BODY,
            "returns": DOXYGEN.replace(" * @return the clamped value\n", "") + CPP_BODY,
            "unchanged": DOXYGEN + CPP_BODY.replace("std::min", "std::max"),
        },
    },
}


def case_json(language: str, number: int = 1) -> dict:
    """The harness's JSON for the hand-made case of ``language``."""
    return {
        "case_id": f"case-{number}",
        "file_path": f"case-{number}_file.{language}",
        "line_range": CASES[language]["range"],
        "language": language,
        "prompt": "",
    }
