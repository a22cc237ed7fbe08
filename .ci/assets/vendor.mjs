// Writes the minified browser build of ts-fsrs (the FSRS spaced-repetition scheduler) and its
// licence into docs/assets/vendor/, from the version pinned in package-lock.json.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "node_modules", "ts-fsrs");
const { version, license } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const out = join(here, "..", "..", "docs", "assets", "vendor", "ts-fsrs");
mkdirSync(out, { recursive: true });

const source = readFileSync(join(packageDir, "dist", "index.umd.js"), "utf8")
  .replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n"); // the map is not shipped
const { code } = transformSync(source, { minify: true, target: "es2019", legalComments: "none" });
const banner = `/*! ts-fsrs ${version} | ${license} License, see LICENSE beside this file | ` +
  "refreshed by `npm run vendor` in .ci/assets */\n";
writeFileSync(join(out, "ts-fsrs.min.js"), banner + code);
writeFileSync(join(out, "LICENSE"), readFileSync(join(packageDir, "LICENSE"), "utf8"));
console.log(`ts-fsrs ${version}: ${(banner + code).length} bytes in ${out}`);
