/**
 * An export's entries and artifacts held to the ledger events that wrote them (docs/design.md,
 * "Export and import"): an event made each id (`remember`, `observe`, `decide`, `note`,
 * `plan.create`, `artifact_put`) with its kind, author and project; its content's SHA-256 is the
 * `content_sha256` of the last event that wrote it (a plan's `plan.update`s count its versions);
 * no `forget` removed it. The events come last in the file, so each row is held until then, in
 * some 230 bytes: its id, and numbers and hash prefixes in typed arrays.
 */
import { sha256Hex } from '../domain/crypto';

type Row = Record<string, unknown>;

/** Ledger ops that make an entry, and the kind each makes. */
const MAKES: Record<string, string> = {
  remember: 'memory',
  observe: 'observation',
  decide: 'decision',
  note: 'note',
  'plan.create': 'plan',
  artifact_put: 'artifact',
};

/** The kinds a row may have (validated before it is held), as codes. */
const KINDS = ['memory', 'observation', 'decision', 'note', 'plan', 'artifact'];

/** Where an export's rows and its events disagree: the entry (or artifact), its line, and how. */
export interface RowMismatch {
  part: 'entry' | 'artifact';
  id: string;
  line: number;
  problem: string;
}

// per row: its line, version, the seq of the event that made it, of the last that wrote it, of a
// forget (0: none), and how many plan.update events wrote it
const LINE = 0;
const VERSION = 1;
const MADE = 2;
const LAST = 3;
const FORGOT = 4;
const UPDATES = 5;
const NUMS = 6;
// per row: the first 16 bytes of its content's SHA-256, of the last write's, and of the SHA-256 of
// its kind, author and project (what the event that made it must say)
const WANT = 0;
const GOT = 16;
const WHO = 32;
const BYTES = 48;

/** The first 16 bytes of a SHA-256 given in hex. */
function prefix(hex: unknown, out: Uint8Array, at: number): void {
  const s = typeof hex === 'string' ? hex : '';
  for (let i = 0; i < 16; i++) out[at + i] = Number.parseInt(s.slice(2 * i, 2 * i + 2), 16) || 0;
}

function same(b: Uint8Array, x: number, y: number): boolean {
  for (let i = 0; i < 16; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}

const who = (kind: unknown, agent: unknown, project: unknown) =>
  sha256Hex(JSON.stringify([kind, agent, project ?? null]));

export class WriteCheck {
  /** Each row's id and its slot in the arrays, in file order. */
  private slots = new Map<string, number>();
  private size = 0;
  private kinds = new Uint8Array(1024);
  private nums = new Uint32Array(1024 * NUMS);
  private bytes = new Uint8Array(1024 * BYTES);
  private problems = new Map<number, string>();

  async entry(line: number, row: Row): Promise<void> {
    const hash = await sha256Hex(String(row.content));
    const slot = await this.add(line, row, String(row.kind), hash, Number(row.version));
    if (row.content_sha256 !== hash) this.problems.set(slot, 'its content_sha256 is not the hash of its content');
  }

  async artifact(line: number, row: Row): Promise<void> {
    await this.add(line, row, 'artifact', String(row.sha256), 1);
  }

  /** Why a plan's kept version does not belong to a plan of the file, or undefined. */
  version(row: Row): string | undefined {
    const slot = this.slots.get(String(row.entry_id));
    if (slot === undefined || this.kind(slot) !== 'plan') return `entry_id: ${row.entry_id} is no plan of the file`;
    const at = this.nums[slot * NUMS + VERSION] as number;
    if (Number(row.version) >= at) return `version: the plan is at version ${at}; a kept version is older`;
    return undefined;
  }

  private async add(line: number, row: Row, kind: string, hash: string, version: number): Promise<number> {
    const id = String(row.id);
    const slot = this.size++;
    // a second row of an id: the first is left unchecked, the second is refused for it
    if (this.slots.has(id)) this.problems.set(slot, 'its id is held by an earlier row too');
    this.slots.delete(id);
    this.slots.set(id, slot);
    if (slot >= this.kinds.length) {
      const grow = <T extends Uint8Array | Uint32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.kinds = grow(this.kinds, (n) => new Uint8Array(n));
      this.nums = grow(this.nums, (n) => new Uint32Array(n));
      this.bytes = grow(this.bytes, (n) => new Uint8Array(n));
    }
    this.kinds[slot] = KINDS.indexOf(kind);
    this.nums[slot * NUMS + LINE] = line;
    this.nums[slot * NUMS + VERSION] = version;
    prefix(hash, this.bytes, slot * BYTES + WANT);
    prefix(await who(kind, row.agent, row.project), this.bytes, slot * BYTES + WHO);
    return slot;
  }

  async event(e: Row): Promise<void> {
    const slot = typeof e.entry_id === 'string' && e.sealed !== true ? this.slots.get(e.entry_id) : undefined;
    if (slot === undefined) return;
    const n = slot * NUMS;
    const seq = Number(e.seq);
    const op = String(e.op);
    if (Object.hasOwn(MAKES, op)) {
      if (this.nums[n + MADE]) {
        this.flag(slot, `a second event (seq ${seq}) says it made it`);
      } else if (MAKES[op] !== this.kind(slot)) {
        this.flag(slot, `its kind is ${this.kind(slot)} but the event that made it (seq ${seq}) is ${op}`);
      } else {
        const made = new Uint8Array(16);
        prefix(await who(MAKES[op], e.agent, e.project), made, 0);
        if (!made.every((b, i) => b === this.bytes[slot * BYTES + WHO + i])) {
          this.flag(slot, `its agent or project is not that of the event that made it (seq ${seq})`);
        }
      }
      this.nums[n + MADE] = seq;
    } else if (op === 'plan.update' && this.kind(slot) === 'plan') {
      this.nums[n + UPDATES] = (this.nums[n + UPDATES] as number) + 1;
    } else if (op === 'forget') {
      this.nums[n + FORGOT] = seq;
      return;
    } else {
      return;
    }
    this.nums[n + LAST] = seq;
    prefix(e.content_sha256, this.bytes, slot * BYTES + GOT);
  }

  private kind(slot: number): string {
    return KINDS[this.kinds[slot] as number] as string;
  }

  private flag(slot: number, problem: string): void {
    if (!this.problems.has(slot)) this.problems.set(slot, problem);
  }

  /** The first row, in file order, that the events do not account for. */
  mismatch(): RowMismatch | undefined {
    for (const [id, slot] of this.slots) {
      const n = slot * NUMS;
      const at = (k: number) => this.nums[n + k] as number;
      const problem =
        this.problems.get(slot) ??
        (!at(MADE)
          ? 'no event of the ledger made it: its id is not one the ledger knows'
          : at(FORGOT)
            ? `the ledger forgot it (seq ${at(FORGOT)})`
            : !same(this.bytes, slot * BYTES + WANT, slot * BYTES + GOT)
              ? `its content does not match the content hash of the last event that wrote it (seq ${at(LAST)})`
              : this.kind(slot) === 'plan' && at(VERSION) !== at(UPDATES) + 1
                ? `it is at version ${at(VERSION)} but the ledger wrote it ${at(UPDATES) + 1} times`
                : undefined);
      if (problem) {
        return { part: this.kind(slot) === 'artifact' ? 'artifact' : 'entry', id, line: at(LINE), problem };
      }
    }
    return undefined;
  }
}
