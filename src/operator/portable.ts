/**
 * An org taken out and brought in (contract "Export and import"; docs/design.md, "Export and
 * import"): the export as NDJSON lines — a header (the org, the id its ledger's hashes cover, the
 * ledger's head), then projects, entries, plans' kept versions, artifacts with their bytes, the
 * ledger's events, and an `end` line with the counts — streamed a page at a time in bounded
 * memory; its offline verification; and its import into an empty org of another install. The
 * same code serves the CLI, /admin and the dashboard, on Node and on Workers.
 */
import { base64ToBytes, bytesToBase64, sha256Hex } from '../domain/crypto';
import { Invalid } from '../domain/errors';
import { UUID_RE } from '../domain/ids';
import { ChainCheck, type SealedEvent, type VerifiableEvent, type VerifyResult } from '../domain/ledger';
import type { BlobStore, ExportHead, ExportPart, Store } from '../domain/ports';
import { text } from '../domain/schemas';
import { rowProblem } from './portable-rows';
import { type RowMismatch, WriteCheck } from './portable-writes';

export { linesOf, MAX_LINE_BYTES } from './lines';

export const EXPORT_TYPE = 'cairn-export';
export const EXPORT_FORMAT = 1;
const PARTS: ExportPart[] = ['project', 'entry', 'version', 'artifact', 'event'];
const PAGE = 1000;
/** Artifacts are read a few at a time: each line holds the artifact's bytes. */
const ARTIFACT_PAGE = 16;
/** An import sends rows in batches of this many, or of this many bytes of artifacts. */
const BATCH_ROWS = 500;
const BATCH_BYTES = 8 << 20;

type Row = Record<string, unknown>;
type Counts = Record<ExportPart, number>;

export interface ExportHeader extends ExportHead {
  type: typeof EXPORT_TYPE;
  format: typeof EXPORT_FORMAT;
  exported_at: string;
  /** The agents' private notes are in it (the owner's choice, recorded in the ledger). */
  private: boolean;
}

const zeroCounts = (): Counts => ({ project: 0, entry: 0, version: 0, artifact: 0, event: 0 });

/** The key a page of `part` ends at, for the next page. */
function keyOf(part: ExportPart, row: Row): string {
  if (part === 'project') return String(row.canonical);
  if (part === 'version') return `${row.entry_id} ${row.version}`;
  if (part === 'event') return String(row.seq);
  return String(row.id);
}

/**
 * The org's export, a line at a time (each ends with a newline). `withPrivate`: the owner chose to
 * include the agents' private notes; `begin` starts the export (store.admin.exportOrg for the
 * operator, store.dashboard.exportOrg for an owner), whose ledger records that choice by its actor.
 */
export async function* exportLines(
  store: Store,
  blobs: BlobStore,
  orgId: string,
  opts: { withPrivate: boolean; begin: (withPrivate: boolean) => Promise<ExportHead> },
): AsyncGenerator<string> {
  const head = await opts.begin(opts.withPrivate);
  const header: ExportHeader = {
    type: EXPORT_TYPE,
    format: EXPORT_FORMAT,
    exported_at: new Date().toISOString(),
    private: opts.withPrivate,
    ...head,
  };
  yield `${JSON.stringify(header)}\n`;
  const counts = zeroCounts();
  for (const part of PARTS) {
    let after: string | null = null;
    for (;;) {
      const limit = part === 'artifact' ? ARTIFACT_PAGE : PAGE;
      const rows = await store.admin.exportPage(orgId, part, after, limit, opts.withPrivate, head.head.seq);
      for (const row of rows) {
        yield `${JSON.stringify({ type: part, ...(part === 'artifact' ? await withBytes(blobs, row) : row) })}\n`;
        counts[part]++;
      }
      if (rows.length < limit) break;
      after = keyOf(part, rows.at(-1) as Row);
    }
  }
  yield `${JSON.stringify({ type: 'end', counts, head: head.head })}\n`;
}

/** An artifact's line: its row without the install's blob key, and its bytes. */
async function withBytes(blobs: BlobStore, row: Row): Promise<Row> {
  const { blob_key, ...rest } = row;
  const bytes = await blobs.get(String(blob_key));
  if (!bytes) {
    throw new Error(
      `artifact ${row.id} ("${row.name}"): its bytes are missing from the blob store; cairn sweep lists such artifacts`,
    );
  }
  return { ...rest, content_base64: bytesToBase64(bytes) };
}

/** Reads an export's lines in order: the header, then each part's rows, then the end line. */
class ExportReader {
  header: ExportHeader | undefined;
  counts = zeroCounts();
  end: { counts: Counts; head: { seq: number; hash: string } } | undefined;
  /** Entries and artifacts, held against the events that wrote them. */
  writes = new WriteCheck();
  private part = 0;
  n = 0;

  /**
   * The line parsed and checked — for its place, and a row against the rules its tool applies;
   * a row of a part, or undefined for the header, the end and a blank line.
   */
  async read(line: string): Promise<{ part: ExportPart; row: Row } | undefined> {
    this.n++;
    if (!line) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw this.fail('is not JSON');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw this.fail('is not a JSON object');
    const { type, ...row } = value as Row;
    if (!this.header) {
      const h = value as ExportHeader;
      if (type !== EXPORT_TYPE || typeof h.chain_id !== 'string' || typeof h.org?.name !== 'string') {
        throw this.fail(
          'is not the header of a Cairn export ({"type":"cairn-export",…}); is this the file cairn export wrote?',
        );
      }
      if (h.format !== EXPORT_FORMAT) {
        throw this.fail(`is format ${h.format}; this Cairn reads format ${EXPORT_FORMAT}: upgrade Cairn to import it`);
      }
      if (!UUID_RE.test(h.chain_id)) throw this.fail('(the header): chain_id is not an org id (a UUID)');
      if (!text(1, 128).safeParse(h.org.name).success) throw this.fail('(the header): org.name is not an org name');
      this.header = h;
      return undefined;
    }
    if (this.end) throw this.fail('comes after the end line');
    if (type === 'end') {
      this.end = value as ExportReader['end'];
      for (const p of PARTS) {
        if (this.end?.counts?.[p] !== this.counts[p]) {
          throw this.fail(`says ${this.end?.counts?.[p]} ${p} lines but the file holds ${this.counts[p]}`);
        }
      }
      return undefined;
    }
    const at = PARTS.indexOf(type as ExportPart);
    if (at < 0) throw this.fail(`has type ${JSON.stringify(type)}, which an export does not hold`);
    if (at < this.part) throw this.fail(`is a ${type} after the ${PARTS[this.part]} lines; the parts are out of order`);
    this.part = at;
    const part = type as ExportPart;
    const { content_base64, ...fields } = row;
    const problem =
      rowProblem(part, part === 'artifact' ? fields : row) ??
      (part === 'version' ? this.writes.version(row) : undefined);
    if (problem) throw this.fail(`(${part}${row.id ? ` ${row.id}` : ''}): ${problem}`);
    if (part === 'entry') await this.writes.entry(this.n, row);
    if (part === 'artifact') await this.writes.artifact(this.n, row);
    if (part === 'event') await this.writes.event(row);
    this.counts[part]++;
    return { part, row };
  }

  /** The file ended: it must have had its end line. */
  finish(): void {
    if (!this.header) throw new Invalid('file', 'is empty: no Cairn export header');
    if (!this.end) throw new Invalid('file', `ends at line ${this.n} without its end line: it is not whole`);
  }

  fail(what: string): Invalid {
    return new Invalid('file', `line ${this.n} ${what}`);
  }
}

/** An export's verification: its chain's, and the first entry or artifact its events do not account for. */
export type ExportVerified = VerifyResult & {
  org?: ExportHead['org'];
  head?: { seq: number; hash: string };
  entry?: RowMismatch;
};

/**
 * Verifies an export offline (`cairn ledger verify --file`): the header, the order of the parts,
 * the counts, each row against the tools' rules (a row they would refuse throws, naming its
 * line), the ledger's chain from its first event to the head the header names — every hash
 * recomputed, a sealed event's links checked — and each entry and artifact against the events
 * that wrote it. Says the first broken event, or the first entry its events disagree with.
 */
export async function verifyExport(lines: AsyncIterable<string>): Promise<ExportVerified> {
  const reader = new ExportReader();
  let check: ChainCheck | undefined;
  for await (const line of lines) {
    const r = await reader.read(line);
    if (!check && reader.header) check = new ChainCheck(reader.header.chain_id);
    if (r?.part === 'event' && check && !(await check.add(r.row as unknown as VerifiableEvent | SealedEvent))) break;
  }
  if (check?.broken == null) reader.finish();
  const result = (check as ChainCheck).result();
  const head = reader.header?.head;
  const org = reader.header?.org;
  if (result.ok && head && (head.seq !== result.events || head.hash !== (check as ChainCheck).head.hash)) {
    return { ok: false, events: result.events, broken_at: result.events + 1, org };
  }
  const entry = result.ok ? reader.writes.mismatch() : undefined;
  if (entry) return { ...result, ok: false, org, entry };
  return { ...result, org, ...(result.ok ? { head: (check as ChainCheck).head } : {}) };
}

/** The head an import was told to expect: a SHA-256 in hex, or undefined for none. */
export function expectedHead(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/i.test(value)) {
    throw new Invalid(field, 'must be the ledger head its export reported: 64 hex characters');
  }
  return value.toLowerCase();
}

/**
 * Loads an export into `orgId` (made when no org has that id; else it must be empty), in batches;
 * every row is checked before it is sent, the database checks every event's hash as it goes, and
 * at the end each entry and artifact is checked against the events that wrote it and, with
 * `expectHead`, the chain against the head its source reported. On any failure everything
 * imported is removed (bytes included, and the org when the import made it).
 */
export async function importExport(
  store: Store,
  blobs: BlobStore,
  orgId: string,
  lines: AsyncIterable<string>,
  opts: { expectHead?: string | undefined } = {},
) {
  const reader = new ExportReader();
  let begun = false;
  const written: string[] = [];
  let batch: { part: ExportPart; rows: Row[]; bytes: number } | undefined;
  const flush = async () => {
    if (batch?.rows.length) await store.admin.importRows(orgId, batch.part, batch.rows);
    batch = undefined;
  };
  try {
    for await (const line of lines) {
      const r = await reader.read(line);
      if (!begun && reader.header) {
        await store.admin.importBegin(orgId, reader.header.org.name, reader.header.chain_id);
        begun = true;
      }
      if (!r) continue;
      let { row } = r;
      let size = 0;
      if (r.part === 'artifact') {
        const { content_base64, ...meta } = row;
        const bytes = await artifactBytes(meta, content_base64, reader);
        written.push(`${orgId}/${meta.id}`);
        await blobs.put(`${orgId}/${meta.id}`, bytes, String(meta.content_type));
        row = meta;
        size = bytes.length;
      }
      if (batch && (batch.part !== r.part || batch.rows.length >= BATCH_ROWS || batch.bytes >= BATCH_BYTES)) {
        await flush();
      }
      batch ??= { part: r.part, rows: [], bytes: 0 };
      batch.rows.push(row);
      batch.bytes += size;
    }
    await flush();
    reader.finish();
    const head = reader.end?.head as { seq: number; hash: string };
    const bad = reader.writes.mismatch();
    if (bad) {
      throw new Invalid('file', `line ${bad.line} (${bad.part} ${bad.id}): ${bad.problem}; the file was changed`);
    }
    if (opts.expectHead && head?.hash !== opts.expectHead) {
      throw new Invalid(
        'expect_head',
        `the file's ledger ends at seq ${head?.seq}, hash ${head?.hash}, not at the head its export reported (${opts.expectHead}): events were cut from its end or the file was changed`,
      );
    }
    await store.admin.importEnd(orgId, head, false);
  } catch (err) {
    if (begun) {
      await store.admin.importEnd(orgId, { seq: 0, hash: '' }, true);
      await blobs.delete(written);
    }
    throw err;
  }
  return { org: { id: orgId, name: reader.header?.org.name }, imported: reader.counts, from: reader.header?.org };
}

/** An artifact's bytes from its line, checked against its size and SHA-256. */
async function artifactBytes(meta: Row, base64: unknown, reader: ExportReader): Promise<Uint8Array> {
  const bytes = base64ToBytes(String(base64));
  if (!bytes) throw reader.fail(`(artifact ${meta.id}): content_base64 is not base64`);
  if (bytes.length !== meta.size || (await sha256Hex(bytes)) !== meta.sha256) {
    throw reader.fail(`(artifact ${meta.id}): its bytes do not match its size and sha256; the file was changed`);
  }
  return bytes;
}

/** The response header of an export that names its ledger's head (seq and hash are in its end line). */
export const HEAD_HEADER = 'X-Cairn-Ledger-Head';

/**
 * A streamed NDJSON download; the first line is read before answering, so a refusal is a status,
 * and the header line's head is sent as X-Cairn-Ledger-Head.
 */
export async function ndjson(lines: AsyncGenerator<string>, filename: string): Promise<Response> {
  const first = await lines.next();
  const head = first.done ? undefined : (JSON.parse(first.value) as Partial<ExportHeader>).head;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(first.value));
    },
    // lines go out in chunks of about 64 KiB, not one by one
    async pull(controller) {
      let chunk = '';
      while (chunk.length < 65_536) {
        const next = await lines.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      // the head the export ends at, for `cairn import --expect-head` (the end line says it too)
      ...(head?.hash ? { [HEAD_HEADER]: head.hash } : {}),
    },
  });
}
