/** Writes a benchmark's figures into its own marked section of BENCHMARKS.md (added at the end the first time). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeBenchmarkSection(name: string, heading: string, markdown: string): void {
  const path = join(import.meta.dirname, '..', 'BENCHMARKS.md');
  const doc = readFileSync(path, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const stop = `<!-- ${name}:end -->`;
  const section = `${start}\n${markdown}\n${stop}`;
  const next = doc.includes(start)
    ? doc.replace(new RegExp(`${start}[\\s\\S]*${stop}`), () => section)
    : `${doc}\n## ${heading}\n\n${section}\n`;
  writeFileSync(path, next);
}
