// Type-check a whole repository copy as one program: node repo_tsc_driver.js TYPESCRIPT ROOT,
// the repository-relative files listed one per line in files.txt, the compiler options in
// tsc_options.json. Prints {relative path: [diagnostics]} for the listed files as JSON.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = path.resolve(process.argv[3]);
const files = fs.readFileSync("files.txt", "utf8").split("\n").filter((line) => line);
const raw = JSON.parse(fs.readFileSync("tsc_options.json", "utf8"));
const parsed = ts.convertCompilerOptionsFromJson(raw, root);
if (parsed.errors.length) {
  throw new Error(ts.flattenDiagnosticMessageText(parsed.errors[0].messageText, "\n"));
}
const program = ts.createProgram(
  files.map((name) => path.join(root, name)),
  parsed.options,
);
const results = {};
for (const name of files) {
  results[name] = [];
}
for (const name of files) {
  const source = program.getSourceFile(path.join(root, name));
  if (!source) {
    results[name] = { error: "not part of the program" };
    continue;
  }
  for (const d of ts.getPreEmitDiagnostics(program, source)) {
    if (!d.file || d.file.fileName !== source.fileName) {
      continue;
    }
    const where = d.file.getLineAndCharacterOfPosition(d.start || 0);
    const text = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
    results[name].push({ code: d.code, message: text, line: where.line + 1, column: where.character + 1 });
  }
}
process.stdout.write(JSON.stringify(results));
