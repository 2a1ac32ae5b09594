import { examineHome, type HomeReport } from '../../doctor/index.js';
import { table } from '../output.js';
import type { CommandSpec } from '../types.js';

/** `12.3 MB`, `812 B`; `-` when the size is not known (a Redis mount). */
export function showBytes(bytes: number | null): string {
  if (bytes === null) return '-';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function reportText(report: HomeReport): string {
  const rows = report.kinds.map((k) => ({
    kind: k.records === undefined ? k.kind : `${k.kind} (${k.records} records)`,
    place: k.place,
    count: k.count,
    size: showBytes(k.bytes),
    removable: k.removable.count ? `${k.removable.count}${k.removable.records === undefined ? '' : ` (${k.removable.records} records)`}, ${showBytes(k.removable.bytes)}` : '-',
  }));
  const { total, retention } = report;
  return [
    `home ${report.home}`,
    table(rows, ['kind', 'place', 'count', 'size', 'removable']),
    `total: ${total.count} items, ${showBytes(total.bytes)}; retention (${retention.retentionDays} days, ${retention.maxPerWorkflow} per workflow) removes ${total.removable.count} items, ${showBytes(total.removable.bytes)}`,
  ].join('\n');
}

/** `weir doctor`: what the home holds by kind, with sizes, and what retention will remove. */
export const doctor: CommandSpec = {
  name: 'doctor',
  summary: 'what the home holds by kind (count, size) and what retention (executions.retentionDays, maxPerWorkflow) will remove',
  async run(ctx) {
    const weir = await ctx.weir();
    const report = await examineHome({ home: ctx.home, storage: weir.storage, config: weir.config });
    return { data: report, text: reportText(report) };
  },
};
