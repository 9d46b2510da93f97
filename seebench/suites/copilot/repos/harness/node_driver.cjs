'use strict';
// Run a repository's jest, mocha or vitest suite in the sandbox and print one JSON report
// after a marker line (see pytest_driver.py for the report's shape). Usage (by seebench, in
// the run directory): node .seebench/node_driver.cjs CONFIG_JSON with {runner, script (the
// runner's script under node_modules; none for node --test), options, specs, files,
// coverage, envRoot, heapMb, timeoutS}.
// The environment's node_modules is linked into the run directory. With coverage, each
// test file runs alone and the lines it executed are attributed to that file's tests
// (jest: istanbul's statement counts; mocha and node --test: V8 block counts from
// NODE_V8_COVERAGE).
const fs = require('fs');
const path = require('path');
const cp = require('child_process');

const MARKER = '\n@@SEEBENCH-REPORT@@\n';
const config = JSON.parse(process.argv[2]);
const runDir = process.cwd();
const OUTPUT = '/tmp/seebench-node.out';
const JSON_OUT = '/tmp/seebench-runner.json';
const WASM_FLAG = '--disable-wasm-trap-handler';
// the runner is stopped a little before the sandbox's wall limit, so a report still comes back
const deadline = Date.now() + 1000 * config.timeoutS;

function relative(file) {
  const rel = path.relative(runDir, file.startsWith('file://') ? new URL(file).pathname : file);
  return rel.split(path.sep).join('/');
}

function jestLike(report) {
  const outcomes = {};
  const map = { passed: 'passed', failed: 'failed' };
  for (const result of report.testResults || []) {
    const file = relative(result.name || result.testFilePath || '');
    const tests = result.assertionResults || result.testResults || [];
    if (!tests.length && result.status === 'failed') outcomes[file] = 'error';
    for (const test of tests) {
      const title = [...(test.ancestorTitles || []), test.title].filter(Boolean).join(' > ');
      outcomes[`${file}::${title}`] = map[test.status] || 'skipped';
    }
    if (tests.length && result.status === 'failed' && result.message && !tests.some((t) => t.status === 'failed')) {
      outcomes[file] = 'error'; // the file failed outside its tests (a hook, an import)
    }
  }
  return outcomes;
}

function runOnce(files, coverageDir, selectBy = 'testMatch') {
  const args = [`--max-old-space-size=${config.heapMb}`];
  if (config.script) args.push(path.join(config.envRoot, 'node_modules', config.script));
  const env = { ...process.env, SEEBENCH_OUTCOMES: JSON_OUT, FORCE_COLOR: '0', CI: '1' };
  // V8 reserves ~10 GiB of address space per WebAssembly memory for its trap-handler bound
  // checks, more than the sandbox's RLIMIT_AS: without this, any Wasm (undici's HTTP parser,
  // instantiated when something touches fetch) throws "Out of memory" and node exits 1
  if (process.allowedNodeEnvironmentFlags.has(WASM_FLAG)) {
    env.NODE_OPTIONS = [process.env.NODE_OPTIONS, WASM_FLAG].filter(Boolean).join(' ');
  }
  try { fs.unlinkSync(JSON_OUT); } catch (e) { /* none yet */ }
  const specs = files.length ? files : config.specs;
  if (config.runner === 'jest') {
    args.push(...config.options, '--ci', '--runInBand', '--watchman=false',
      '--cacheDirectory=/tmp/jest-cache', '--reporters=default',
      `--reporters=${path.join(runDir, '.seebench', 'jest_reporter.cjs')}`);
    if (coverageDir) {
      args.push('--coverage', '--coverageReporters=json', `--coverageDirectory=${coverageDir}`,
        '--coverageThreshold={}');
    } else {
      args.push('--coverage=false'); // a repository's own coverage threshold is not a test failure
    }
    // a file named on its own (e.g. a source file a test was appended to) runs even where the
    // repository's testMatch would not pick it up
    if (files.length) {
      const select = selectBy === 'testMatch'
        ? files.map((f) => `--testMatch=**/${f}`)
        : [`--testRegex=(${files.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`];
      args.push(...select, '--runTestsByPath', ...files);
      // jest never instruments a file that is a test (it matches testMatch), so a source file
      // run as a test (tests appended to it) would report no coverage of its own lines
      if (coverageDir) args.push(...files.map((f) => `--forceCoverageMatch=**/${f}`));
    } else args.push(...specs);
  } else if (config.runner === 'mocha') {
    args.push('--reporter', path.join(runDir, '.seebench', 'mocha_reporter.cjs'), ...config.options, ...specs);
    if (coverageDir) env.NODE_V8_COVERAGE = coverageDir;
  } else if (config.runner === 'node-test') {
    args.push('--test', `--test-reporter=${path.join(runDir, '.seebench', 'node_test_reporter.mjs')}`,
      ...config.options, ...specs);
    if (coverageDir) env.NODE_V8_COVERAGE = coverageDir;
  } else if (config.runner === 'vitest') {
    args.push('run', ...config.options, '--reporter=json', `--outputFile=${JSON_OUT}`, ...specs);
  } else {
    throw new Error(`unknown runner ${config.runner}`);
  }
  const out = fs.openSync(OUTPUT, 'w');
  const left = Math.max(1000, deadline - Date.now());
  const done = cp.spawnSync(process.execPath, args, {
    stdio: ['ignore', out, out], env, timeout: left, killSignal: 'SIGKILL',
  });
  fs.closeSync(out);
  if (done.error && done.error.code === 'ETIMEDOUT') {
    fs.appendFileSync(OUTPUT, `\nseebench: the test run was stopped after ${Math.round(left / 1000)} s\n`);
  }
  let outcomes = {};
  try {
    const data = JSON.parse(fs.readFileSync(JSON_OUT, 'utf8'));
    outcomes = config.runner === 'vitest' ? jestLike(data) : data;
  } catch (e) { /* no report: the tail says why */ }
  const text = fs.readFileSync(OUTPUT, 'utf8');
  const timedOut = Boolean(done.error && done.error.code === 'ETIMEDOUT');
  if (config.runner === 'jest' && files.length && selectBy === 'testMatch'
      && /testMatch and testRegex cannot be used together/.test(text)) {
    return runOnce(files, coverageDir, 'testRegex'); // the repository configures testRegex
  }
  return { exit: done.status === null ? 128 : done.status, outcomes, tail: text.slice(-6000), timed_out: timedOut };
}

function lineStarts(source) {
  const starts = [];
  let offset = 0;
  for (const line of source.split('\n')) {
    const indent = line.length - line.trimStart().length;
    starts.push(line.trim() ? offset + indent : -1);
    offset += line.length + 1;
  }
  return starts;
}

function v8Lines(dir) {
  // file -> set of covered lines: a line is covered when the innermost V8 range that holds
  // its first non-blank character ran (count > 0)
  const covered = {};
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const data = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    for (const script of data.result || []) {
      if (!script.url.startsWith('file://')) continue;
      const file = relative(script.url);
      if (file.startsWith('..') || file.startsWith('node_modules/') || file.startsWith('.seebench/')) continue;
      let source;
      try { source = fs.readFileSync(path.join(runDir, file), 'utf8'); } catch (e) { continue; }
      const ranges = [];
      for (const fn of script.functions) for (const r of fn.ranges) ranges.push(r);
      const lines = covered[file] || (covered[file] = new Set());
      lineStarts(source).forEach((start, index) => {
        if (start < 0) return;
        let best = null;
        for (const r of ranges) {
          if (r.startOffset <= start && start < r.endOffset &&
              (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)) best = r;
        }
        if (best && best.count > 0) lines.add(index + 1);
      });
    }
  }
  return covered;
}

function istanbulLines(dir) {
  const covered = {};
  const file = path.join(dir, 'coverage-final.json');
  if (!fs.existsSync(file)) return covered;
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const [name, entry] of Object.entries(data)) {
    const rel = relative(name);
    if (rel.startsWith('..') || rel.startsWith('node_modules/')) continue;
    const lines = covered[rel] || (covered[rel] = new Set());
    for (const [id, count] of Object.entries(entry.s || {})) {
      if (count > 0 && entry.statementMap[id]) lines.add(entry.statementMap[id].start.line);
    }
  }
  return covered;
}

function main() {
  const link = path.join(runDir, 'node_modules');
  if (!fs.existsSync(link) && fs.existsSync(path.join(config.envRoot, 'node_modules'))) fs.symlinkSync(path.join(config.envRoot, 'node_modules'), link);
  const report = { exit: 0, outcomes: {}, tail: '' };
  let files = config.files || [];
  if (!config.coverage || !files.length) {
    const whole = runOnce(files, null);
    Object.assign(report, whole);
    if (!files.length) files = [...new Set(Object.keys(whole.outcomes).map((id) => id.split('::')[0]))];
  }
  if (config.coverage) {
    if (config.runner === 'vitest') {
      report.coverage_error = 'coverage is not supported for vitest';
    } else {
      const tests = [];
      const index = {};
      const map = {};
      files.forEach((file, position) => {
        const dir = `/tmp/seebench-cov-${position}`;
        if (Date.now() > deadline) return;
        const run = runOnce([file], dir);
        Object.assign(report.outcomes, run.outcomes);
        if (run.exit !== 0) report.exit = run.exit;
        report.tail = run.tail;
        const ids = Object.keys(run.outcomes).filter((id) => id.startsWith(`${file}::`));
        const numbers = ids.map((id) => (id in index ? index[id] : (index[id] = tests.push(id) - 1)));
        const covered = config.runner === 'jest' ? istanbulLines(dir) : v8Lines(dir);
        for (const [source, lines] of Object.entries(covered)) {
          const fileMap = map[source] || (map[source] = {});
          for (const line of lines) {
            const list = fileMap[line] || (fileMap[line] = []);
            for (const n of numbers) if (!list.includes(n)) list.push(n);
          }
        }
      });
      report.coverage = { tests, files: map };
    }
  }
  process.stdout.write(MARKER + JSON.stringify(report));
}

main();
