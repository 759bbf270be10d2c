// Prints bench/results/latest.json as the Markdown table docs/performance.md shows: `node --import tsx bench/table.ts`.
import { readFileSync } from 'node:fs';
import type { BenchRow as Row } from './lib.js';

const report = JSON.parse(readFileSync(new URL('results/latest.json', import.meta.url), 'utf8')) as {
  at: string;
  machine: { cpus: number; model: string; memoryGiB: number; node: string };
  rows: Row[];
  failures: string[];
};
const m = report.machine;
console.log(
  `Measured ${report.at.slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, Node ${m.node}; the load generator runs on the same two cores.\n`,
);
console.log('| engine | measure | value | baseline (same run) | target | met |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of report.rows) {
  const value = `${r.value >= 100 ? Math.round(r.value) : r.value.toFixed(1)}${r.unit ? ` ${r.unit}` : ''}`;
  const baseline = r.baseline
    ? `${Math.round(r.baseline)} req/s (${Math.round((r.value / r.baseline) * 100)} %)`
    : '';
  console.log(
    `| ${r.engine} | ${r.measure} | ${value} | ${baseline} | ${r.target ?? ''} | ${r.target ? (r.ok ? 'yes' : '**no**') : ''} |`,
  );
}
if (report.failures.length) console.log(`\nNot measured: ${report.failures.join('; ')}`);
