// Bundle src/main.js and CodeMirror into ../static/editor.js (minified, no source map) and
// collect the licences of every bundled npm package into ../static/editor.LICENSES.txt.
// Run with: npm ci && npm run build
import { build } from "esbuild";
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "static");
const result = await build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none",
  metafile: true,
  outfile: join(out, "editor.js"),
});

const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) packages.set(match[1], join(here, "node_modules", match[1]));
}
const sections = [
  "Third-party software bundled in editor.js (built by plugins/seebench-study/seebench_study/frontend/build.mjs).",
  "",
];
for (const [name, dir] of [...packages].sort()) {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  sections.push("=".repeat(78), `${name} ${meta.version} (${meta.license})`, "=".repeat(78));
  sections.push(licenceFile ? readFileSync(join(dir, licenceFile), "utf8").trim() : "(no licence file shipped)", "");
}
writeFileSync(join(out, "editor.LICENSES.txt"), sections.join("\n") + "\n");
console.log(`editor.js: ${packages.size} packages bundled`);
