'use strict';
// A jest reporter (loaded by path) that records one outcome per test id
// (<file>::<describe titles and test title joined by " > ">) and rewrites them as JSON to
// $SEEBENCH_OUTCOMES after every test file, so a run stopped at its time limit still says
// what finished. A file that failed outside its tests (an import, a hook) is "error" under
// the file's own path.
const fs = require('fs');
const path = require('path');

const STATUS = { passed: 'passed', failed: 'failed' };

class SeebenchJestReporter {
  constructor() {
    this.outcomes = {};
  }

  onTestResult(test, result) {
    const file = path.relative(process.cwd(), result.testFilePath).split(path.sep).join('/');
    const tests = result.testResults || [];
    for (const item of tests) {
      const title = [...(item.ancestorTitles || []), item.title].filter(Boolean).join(' > ');
      this.outcomes[`${file}::${title}`] = STATUS[item.status] || 'skipped';
    }
    if (result.testExecError || (result.failureMessage && !tests.some((t) => t.status === 'failed'))) {
      this.outcomes[file] = 'error';
    }
    if (process.env.SEEBENCH_OUTCOMES) {
      fs.writeFileSync(process.env.SEEBENCH_OUTCOMES, JSON.stringify(this.outcomes));
    }
  }
}

module.exports = SeebenchJestReporter;
