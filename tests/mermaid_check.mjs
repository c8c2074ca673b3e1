// Parse every ```mermaid block of a Markdown page with Mermaid itself (the library GitHub uses to
// draw them), in Node with jsdom standing in for the browser. Exit 1 if any block does not parse.
// Usage: NODE_PATH=<dir>/node_modules node tests/mermaid_check.mjs PAGE.md
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const modules = join(process.env.L2TPGEN_MERMAID_DIR, 'node_modules');
const require = createRequire(join(modules, 'noop.js'));
const { JSDOM } = require('jsdom');
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import(require.resolve('mermaid'));
const page = readFileSync(process.argv[2], 'utf8');
const blocks = [...page.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]);
let bad = 0;
for (const block of blocks) {
  try {
    const result = await mermaid.parse(block);
    console.log(`ok ${result.diagramType}`);
  } catch (error) {
    bad += 1;
    console.log(`error ${String(error.message || error).split('\n').slice(0, 3).join(' | ')}`);
  }
}
console.log(`${blocks.length} blocks, ${bad} not parsed`);
process.exit(bad || blocks.length === 0 ? 1 : 0);
