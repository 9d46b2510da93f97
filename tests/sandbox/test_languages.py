"""Node and Java programs in the sandbox (skipped where the runtime is not installed)."""

from __future__ import annotations

import shutil

import pytest

from seebench.sandbox import Limits, java_request, node_request
from tests.requirements import requires

needs_node = requires("node")
needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")

LIMITS = Limits(cpu_s=10, wall_s=30, memory_mb=256, disk_mb=16)


@needs_node
def test_node_program_runs(sandbox):
    result = sandbox.run(
        node_request("console.log([1, 2, 3].map(x => x * 2).join(','))", limits=LIMITS)
    )
    assert result.verdict == "passed", result
    assert result.stdout.strip() == "2,4,6"


@needs_node
def test_node_failing_assertion_fails(sandbox):
    result = sandbox.run(node_request("require('assert').strictEqual(1 + 1, 3)", limits=LIMITS))
    assert result.verdict == "failed", result
    assert "AssertionError" in result.stderr


@needs_node
def test_node_memory_hog_gets_memory_verdict(sandbox):
    hog = "const a = []; for (let i = 0; i < 1e6; i++) a.push(new Array(1e5).fill(i));"
    result = sandbox.run(node_request(hog, limits=LIMITS.replace(memory_mb=128)))
    assert result.verdict == "memory", result


@needs_node
def test_node_has_no_network(sandbox):
    code = (
        "require('net').connect(53, '1.1.1.1')"
        ".on('connect', () => { console.log('ESCAPED'); process.exit(0); })"
        ".on('error', () => process.exit(3));"
        "setTimeout(() => process.exit(4), 3000);"
    )
    result = sandbox.run(node_request(code, limits=LIMITS))
    assert result.verdict == "failed" and result.exit_code in (3, 4), result
    assert "ESCAPED" not in result.stdout


@needs_java
def test_java_program_runs_within_a_small_memory_limit(sandbox):
    source = (
        "public class Main { public static void main(String[] args) {"
        " int s = 0; for (int i = 1; i <= 10; i++) s += i; System.out.println(s); } }"
    )
    result = sandbox.run(java_request(source, limits=LIMITS))
    assert result.verdict == "passed", result
    assert result.stdout.strip() == "55"


@needs_java
def test_java_heap_exhaustion_gets_memory_verdict(sandbox):
    source = (
        "import java.util.*; public class Main { public static void main(String[] args) {"
        " List<long[]> l = new ArrayList<>(); while (true) l.add(new long[1 << 20]); } }"
    )
    result = sandbox.run(java_request(source, limits=LIMITS))
    assert result.verdict == "memory", result
