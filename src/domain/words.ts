/** Words for texts that people and models read. */

/** "1 entry", "2 entries": a count with its noun in the right number. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
