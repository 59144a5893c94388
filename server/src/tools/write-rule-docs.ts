/**
 * Writes docs/rules/<ID>.md from each rule's own docs, so the page a diagnostic links to and
 * the rule's source never drift apart (`npm run docs`; a test fails when a page is stale).
 */
import * as fs from 'fs';
import * as path from 'path';
import { RULES } from '../core';

const dir = path.join(process.cwd(), 'docs', 'rules');
fs.mkdirSync(dir, { recursive: true });
for (const rule of RULES) fs.writeFileSync(path.join(dir, `${rule.id}.md`), rule.docs);
process.stdout.write(`wrote ${RULES.length} rule pages to ${path.relative(process.cwd(), dir)}\n`);
