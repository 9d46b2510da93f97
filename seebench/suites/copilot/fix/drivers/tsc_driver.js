// Type-check each file named on the command line alone (one program per file, lib files
// shared), with the options in tsc_options.json. Prints {file: [diagnostics]} as JSON.
"use strict";
const fs = require("fs");
const ts = require(process.argv[2]);
const files = process.argv.slice(3);
const raw = JSON.parse(fs.readFileSync("tsc_options.json", "utf8"));
const parsed = ts.convertCompilerOptionsFromJson(raw, ".");
if (parsed.errors.length) {
  throw new Error(ts.flattenDiagnosticMessageText(parsed.errors[0].messageText, "\n"));
}
const options = parsed.options;
const host = ts.createCompilerHost(options);
const results = {};
let previous;
for (const file of files) {
  try {
    const program = ts.createProgram([file], options, host, previous);
    previous = program;
    const source = program.getSourceFile(file);
    const diagnostics = ts.getPreEmitDiagnostics(program, source);
    results[file] = diagnostics
      .filter((d) => d.file && d.file.fileName === source.fileName)
      .map((d) => {
        const where = d.file.getLineAndCharacterOfPosition(d.start || 0);
        const text = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
        return { code: d.code, message: text, line: where.line + 1, column: where.character + 1 };
      });
  } catch (error) {
    results[file] = { error: String(error).slice(0, 500) };
  }
}
process.stdout.write(JSON.stringify(results));
