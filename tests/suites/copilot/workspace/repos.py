"""A tiny hand-written repository (Python, JavaScript, TypeScript) and queries about it."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPO = "someone/tiny"

FILES = {
    "tiny/store.py": '''"""A key-value store kept in a JSON file."""

import json


def load_store(path):
    """Read the store from disk."""
    with open(path) as handle:
        return json.load(handle)


class Store:
    """Values by key, saved atomically."""

    def __init__(self, path):
        self.path = path
        self.values = {}

    def save(self):
        """Write every value to a temporary file, then rename it over the store."""
        tmp = self.path + ".tmp"
        with open(tmp, "w") as handle:
            json.dump(self.values, handle)
        os.replace(tmp, self.path)
''',
    "web/retry.js": """// Retrying HTTP requests with exponential backoff.

/**
 * Wait before the next attempt: doubles each time.
 */
function backoffDelay(attempt) {
  return Math.pow(2, attempt) * 100;
}

const fetchWithRetry = async (url, attempts) => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await fetch(url);
    } catch (error) {
      await sleep(backoffDelay(attempt));
    }
  }
  throw new Error('gave up');
};

module.exports = { fetchWithRetry };
""",
    "src/color.ts": """export interface Rgb {
  red: number;
  green: number;
  blue: number;
}

export function parseHexColor(text: string): Rgb {
  const value = parseInt(text.replace('#', ''), 16);
  return { red: (value >> 16) & 255, green: (value >> 8) & 255, blue: value & 255 };
}
""",
    "README.md": "# tiny\n",
}

QUERIES = [
    {
        "id": "tiny-1",
        "repo": REPO,
        "commit": COMMIT,
        "kind": "how",
        "query": "How is the store saved atomically to disk?",
        "gold": [{"file": "tiny/store.py", "lines": [19, 24], "symbol": "save"}],
        "keywords": ["save", ["os.replace", "rename"]],
    },
    {
        "id": "tiny-2",
        "repo": REPO,
        "commit": COMMIT,
        "kind": "which",
        "query": "Which function computes the exponential backoff delay between retries?",
        "gold": [{"file": "web/retry.js", "lines": [3, 8], "symbol": "backoffDelay"}],
        "keywords": ["backoffDelay"],
    },
    {
        "id": "tiny-3",
        "repo": REPO,
        "commit": COMMIT,
        "kind": "where",
        "query": "Where is a hex colour string parsed into red, green and blue?",
        "gold": [{"file": "src/color.ts", "lines": [7, 10], "symbol": "parseHexColor"}],
        "keywords": ["parseHexColor"],
    },
]


def repository_tar(folder: Path) -> Path:
    """The tiny repository as a ``git archive``-like tar named as staged tars are."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{REPO.replace('/', '+')}@{COMMIT}.tar"
    with tarfile.open(path, "w") as archive:
        for name, text in FILES.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_700_000_000
            archive.addfile(info, io.BytesIO(data))
    return path


def write_queries(path: Path, queries: list[dict] = QUERIES) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    return path


def write_facts(path: Path) -> Path:
    slug = f"{REPO.replace('/', '+')}@{COMMIT}"
    path.write_text(
        "slug\trepo\tcommit\tlanguage\twhole_tree\n" + f"{slug}\t{REPO}\t{COMMIT}\tpython\tyes\n",
        encoding="utf-8",
    )
    return path
