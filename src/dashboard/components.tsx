/** @jsxImportSource hono/jsx */
/** Pieces the dashboard's pages share: status lines, empty states, tables, times. */
import type { Child } from 'hono/jsx';
import type { LedgerEvent } from '../domain/schemas';
import { AgentName } from './agent-name';

/** What the last action did, or why it did not: shown at the top of a page. */
export type Feedback = { notice?: string | undefined; error?: string | undefined };

/** What an action did, said where a screen reader announces it. */
export function Notice({ text }: { text?: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

/** Why the last action failed, said where a screen reader announces it at once. */
export function ErrorLine({ error }: { error?: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** What a page shows when it has nothing to list: what that means, and what to do next. */
export function Empty(p: { title: string; children?: Child }) {
  return (
    <div class="empty">
      <p class="title">{p.title}</p>
      {p.children}
    </div>
  );
}

/** A time as `YYYY-MM-DD HH:MM` (UTC), or "never". */
export function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').slice(0, 16) : 'never';
}

/** A key's or an app's status: active, or revoked and when. */
export function Status({ revokedAt }: { revokedAt: string | null | undefined }) {
  return revokedAt ? <span class="badge danger">revoked {when(revokedAt)}</span> : <span class="badge ok">active</span>;
}

/** A table whose cells carry their column's name, so that on a phone each row reads as labelled lines. */
export function DataTable<T>(p: { caption: string; rows: T[]; columns: { label: string; cell: (row: T) => Child }[] }) {
  return (
    <table>
      <caption>{p.caption}</caption>
      <thead>
        <tr>
          {p.columns.map((c) => (
            <th scope="col">{c.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row) => (
          <tr>
            {p.columns.map((c) => (
              <td data-label={c.label}>{c.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Ledger events, one per row. */
export function EventsTable(p: { events: LedgerEvent[]; caption: string }) {
  return (
    <DataTable
      caption={p.caption}
      rows={p.events}
      columns={[
        { label: '#', cell: (e) => e.seq },
        { label: 'When', cell: (e) => when(e.at) },
        { label: 'Agent', cell: (e) => <AgentName name={e.agent} /> },
        { label: 'Operation', cell: (e) => e.op },
        { label: 'Entry', cell: (e) => <code>{e.entry_id ?? ''}</code> },
        { label: 'Reason', cell: (e) => e.reason ?? '' },
      ]}
    />
  );
}
