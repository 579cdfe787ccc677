// Bundles the page (src/main.ts and the client generated from protos/ into src/gen) into dist/
// with esbuild; dist/ is what the rules service's HTTP side serves at /. Beside the bundle:
// rules.json, the sections of docs/rules/*.md the page shows behind each decision (rendered
// here, so the page carries no Markdown reader; every section src/rule_sections.json names must
// exist, or the build fails), and the icon (favicon.svg, and favicon.ico for browsers that ask
// for it without reading the page).
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";

const here = new URL(".", import.meta.url).pathname;
const docs = new URL("../../docs/rules/", import.meta.url).pathname;
const RULE_FILES = { general: "general.md", kraby: "kraby.md", crab_bucket: "crab_bucket.md", crab_rage: "crab_rage.md" };

/** Text safe in HTML. */
function esc(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One line's inline Markdown: code, bold, italics, links (their text: the page is offline). */
function inline(text) {
  return esc(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
}

/** The Markdown the rules files use (paragraphs, lists, tables, headings) as HTML. */
function render(lines) {
  const out = [];
  let para = [];
  let list = null;
  let table = [];
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i.join(" "))}</li>`).join("")}</${list.tag}>`);
    list = null;
    if (table.length) {
      const rows = table.filter((r) => !/^\|[\s|:-]+\|$/.test(r)).map((r) => r.slice(1, -1).split("|").map((c) => c.trim()));
      const [head, ...body] = rows;
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join("")}</tr></thead><tbody>` +
          body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`).join("") +
          `</tbody></table>`,
      );
    }
    table = [];
  };
  for (const raw of lines) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    const item = /^\s*(?:([-*])|\d+\.) (.*)$/.exec(line);
    if (!line.trim()) flush();
    else if (heading) {
      flush();
      out.push(`<h${Math.min(heading[1].length + 1, 6)}>${inline(heading[2])}</h${Math.min(heading[1].length + 1, 6)}>`);
    } else if (line.startsWith("|")) {
      if (para.length || list) flush();
      table.push(line);
    } else if (item) {
      if (para.length || table.length) flush();
      const tag = item[1] ? "ul" : "ol";
      if (list && list.tag !== tag) flush();
      list ??= { tag, items: [] };
      list.items.push([item[2]]);
    } else if (list && /^\s+\S/.test(line)) list.items.at(-1).push(line.trim());
    else para.push(line.trim());
  }
  flush();
  return out.join("\n");
}

/** Every section of a rules file by its heading: its text up to the next heading of the same
 * or a higher level (so "Actions" holds every action). */
function sections(markdown) {
  const lines = markdown.split("\n");
  const found = {};
  lines.forEach((line, i) => {
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (!heading) return;
    let end = i + 1;
    while (end < lines.length) {
      const next = /^(#{1,6}) /.exec(lines[end]);
      if (next && next[1].length <= heading[1].length) break;
      end++;
    }
    found[heading[2].trim()] = render(lines.slice(i + 1, end));
  });
  return found;
}

/** The sections the page names (src/rule_sections.json), each checked to exist. */
async function ruleTexts() {
  const wanted = JSON.parse(await readFile(`${here}src/rule_sections.json`, "utf8"));
  const texts = {};
  for (const [file, name] of Object.entries(RULE_FILES)) texts[file] = sections(await readFile(docs + name, "utf8"));
  const used = {};
  const missing = [];
  for (const [game, decisions] of Object.entries(wanted)) {
    for (const refs of Object.values(decisions)) {
      for (const ref of refs) {
        const [file, heading] = ref.includes("/") ? ref.split("/", 2) : [game, ref];
        if (texts[file]?.[heading] === undefined) missing.push(`${game}: ${ref}`);
        else (used[file] ??= {})[heading] = texts[file][heading];
      }
    }
  }
  if (missing.length) throw new Error(`src/rule_sections.json names sections docs/rules/ lacks:\n  ${missing.join("\n  ")}`);
  return used;
}

// The icon: a crab-red disc with two claws, as SVG and as a 32x32 ICO (a BMP inside).
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="18" r="11" fill="#d64541"/>' +
  '<circle cx="6" cy="7" r="5" fill="#d64541"/><circle cx="26" cy="7" r="5" fill="#d64541"/>' +
  '<circle cx="12" cy="16" r="2" fill="#fff"/><circle cx="20" cy="16" r="2" fill="#fff"/></svg>';

function iconIco() {
  const n = 32;
  const inside = (x, y) => {
    const d = (cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
    if (d(12, 16, 2) || d(20, 16, 2)) return [255, 255, 255];
    if (d(16, 18, 11) || d(6, 7, 5) || d(26, 7, 5)) return [0xd6, 0x45, 0x41];
    return null;
  };
  const pixels = Buffer.alloc(n * n * 4);
  const mask = Buffer.alloc(n * 4); // 1 bit a pixel, rows padded to 4 bytes: all opaque (alpha decides)
  for (let row = 0; row < n; row++) {
    const y = n - 1 - row; // a BMP is stored bottom-up
    for (let x = 0; x < n; x++) {
      const colour = inside(x + 0.5, y + 0.5);
      const at = (row * n + x) * 4;
      if (colour) pixels.set([colour[2], colour[1], colour[0], 255], at);
    }
  }
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(n, 4);
  header.writeInt32LE(n * 2, 8); // the image and its mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const dir = Buffer.alloc(22);
  dir.writeUInt16LE(1, 2); // an icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(n, 6);
  dir.writeUInt8(n, 7);
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(22, 18);
  return Buffer.concat([dir, image]);
}

const rules = await ruleTexts();
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
await writeFile(`${here}dist/rules.json`, JSON.stringify(rules));
await writeFile(`${here}dist/favicon.svg`, ICON_SVG);
await writeFile(`${here}dist/favicon.ico`, iconIco());
