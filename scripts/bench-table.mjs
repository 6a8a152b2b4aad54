// Prints the targets every benchmark recorded in target/bench-targets.tsv (or $BENCH_TARGETS)
// as one Markdown table: target, measured value, met or not (or "for information": a measure
// recorded beside the targets, such as the size of a module without a target). `make bench` runs it last.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = process.env.BENCH_TARGETS ?? fileURLToPath(new URL('../target/bench-targets.tsv', import.meta.url));
let text = '';
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  console.error(`no targets recorded (${file}): run the benchmarks first`);
  process.exit(1);
}
const rows = text.split('\n').filter(Boolean).map((l) => l.split('\t'));
const met = rows.filter((r) => r[2] === 'met').length;
const counted = rows.filter((r) => r[2] !== 'info').length;
console.log(`\n## Targets (${new Date().toISOString().slice(0, 10)}): ${met} of ${counted} met\n`);
console.log('| target | value | met |');
console.log('| --- | --- | --- |');
const verdicts = { met: 'yes', info: 'for information' };
for (const [name, value, verdict] of rows) console.log(`| ${name} | ${value} | ${verdicts[verdict] ?? '**no**'} |`);
