// Bundles the page (src/main.ts and the client generated from protos/ into src/gen) into dist/
// with esbuild; dist/ is what the rules service's HTTP side serves at /.
import { build } from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";

const here = new URL(".", import.meta.url).pathname;
await rm(`${here}dist`, { recursive: true, force: true });
await mkdir(`${here}dist`, { recursive: true });
await build({
  entryPoints: [`${here}src/main.ts`],
  outfile: `${here}dist/app.js`,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  logLevel: "warning",
});
await copyFile(`${here}index.html`, `${here}dist/index.html`);
await copyFile(`${here}style.css`, `${here}dist/style.css`);
