// Prints bench/results/latest.json as the Markdown table docs/performance.md shows: `node --import tsx bench/table.ts`.
import { readFileSync } from 'node:fs';
import type { BenchRow as Row } from './lib.js';

const report = JSON.parse(readFileSync(new URL('results/latest.json', import.meta.url), 'utf8')) as {
  at: string;
  machine: {
    cpus: number;
    model: string;
    memoryGiB: number;
    node: string;
    /** Load averages (1, 5, 15 minutes) as the run started and ended; older reports have none. */
    load?: { start: number[]; end: number[] };
  };
  rows: Row[];
  failures: string[];
};
const m = report.machine;
console.log(
  `Measured ${report.at.slice(0, 16).replace('T', ' ')} UTC (when the run ended) on ${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, Node ${m.node}; the load generator runs on the same two cores.${m.load ? ` Load average (1, 5, 15 min) ${m.load.start.join(', ')} at the start, ${m.load.end.join(', ')} at the end.` : ''} Only ratios within one run compare across runs and days.\n`,
);
/** A figure as the table shows it: whole above 100, one decimal below. */
const figure = (n: number) => (n >= 100 ? String(Math.round(n)) : n.toFixed(1));
console.log('| engine | measure | value | baseline (same run) | target | met |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of report.rows) {
  const unit = r.unit ? ` ${r.unit}` : '';
  const value = `${figure(r.value)}${unit}`;
  const share = r.baseline ? ` (${Math.round((r.value / r.baseline) * 100)} %)` : '';
  const baseline = r.baseline === undefined ? '' : `${figure(r.baseline)}${unit}${share}`;
  console.log(
    `| ${r.engine} | ${r.measure} | ${value} | ${baseline} | ${r.target ?? ''} | ${r.target ? (r.ok ? 'yes' : '**no**') : ''} |`,
  );
}
if (report.failures.length) console.log(`\nNot measured: ${report.failures.join('; ')}`);
