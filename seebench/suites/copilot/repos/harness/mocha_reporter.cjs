'use strict';
// A mocha reporter (loaded by path) that records one outcome per test id
// (<file>::<titles joined by " > ">) and writes them as JSON to $SEEBENCH_OUTCOMES.
// A failing hook is recorded as "error" under the hook's own title path. The file is
// rewritten after every suite, so a run stopped at its time limit still says what finished.
const fs = require('fs');
const path = require('path');

function Base() {
  try {
    return require(require.resolve('mocha/lib/reporters/base', { paths: [process.cwd()] }));
  } catch (e) {
    return null;
  }
}

function SeebenchReporter(runner, options) {
  const base = Base();
  if (base) base.call(this, runner, options);
  const outcomes = {};
  const id = (test) => {
    const file = test.file ? path.relative(process.cwd(), test.file).split(path.sep).join('/') : '<unknown>';
    const titles = typeof test.titlePath === 'function' ? test.titlePath() : [test.fullTitle()];
    return `${file}::${titles.filter(Boolean).join(' > ')}`;
  };
  const write = () => {
    if (process.env.SEEBENCH_OUTCOMES) fs.writeFileSync(process.env.SEEBENCH_OUTCOMES, JSON.stringify(outcomes));
  };
  runner.on('pass', (test) => { outcomes[id(test)] = 'passed'; });
  runner.on('fail', (test) => { outcomes[id(test)] = test.type === 'hook' ? 'error' : 'failed'; write(); });
  runner.on('pending', (test) => { outcomes[id(test)] = 'skipped'; });
  runner.on('suite end', write);
  runner.on('end', write);
  process.on('exit', write);
}

module.exports = SeebenchReporter;
