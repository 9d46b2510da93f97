// A reporter for Node's built-in test runner (node --test --test-reporter=<this file>) that
// records one outcome per test id (<file>::<enclosing test and suite names joined by " > ">)
// and rewrites them as JSON to $SEEBENCH_OUTCOMES after every top-level test.
import { writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

export default async function* seebenchReporter(source) {
  const outcomes = {};
  const stack = [];
  const write = () => {
    if (process.env.SEEBENCH_OUTCOMES) writeFileSync(process.env.SEEBENCH_OUTCOMES, JSON.stringify(outcomes));
  };
  for await (const event of source) {
    const data = event.data || {};
    if (event.type === 'test:start') {
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
      const suite = data.details && data.details.type === 'suite';
      const error = (data.details && data.details.error) || {};
      const cause = error.failureType || (error.cause && error.cause.failureType);
      // a suite counts only when it failed by itself (a hook), not through its tests
      if (suite && (event.type === 'test:pass' || cause === 'subtestsFailed')) continue;
      const file = data.file ? relative(process.cwd(), data.file).split(sep).join('/') : '<unknown>';
      const id = `${file}::${stack.slice(0, data.nesting + 1).join(' > ')}`;
      if (event.type === 'test:fail') outcomes[id] = suite || cause === 'hookFailed' ? 'error' : 'failed';
      else outcomes[id] = data.skip !== undefined || data.todo !== undefined ? 'skipped' : 'passed';
      if (data.nesting === 0) write();
    }
  }
  write();
}
