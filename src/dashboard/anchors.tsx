/** @jsxImportSource hono/jsx */
/**
 * What ties an entry to code (docs/design.md, "Anchors"): the files or folders it is about, each a
 * link to the Memory page filtered by it, its commit, and — when a newer entry of its kind in its
 * project is anchored to one of those paths — a "may be stale" mark in words (a badge with text,
 * not a colour), naming the paths, the newer entry (its first words, linked), its agent and day.
 */
import type { Entry } from '../domain/schemas';
import { AgentName } from './agent-name';

/** One anchored path, linking to what else Memory holds about it. */
export function PathLink({ path }: { path: string }) {
  return (
    <a class="path" href={`/dashboard/memory?path=${encodeURIComponent(path)}`}>
      <code>{path}</code>
    </a>
  );
}

/** The paths, comma-separated, each a link. */
export function PathLinks({ paths }: { paths: string[] }) {
  return (
    <>
      {paths.map((path, i) => (
        <>
          {i ? ', ' : ''}
          <PathLink path={path} />
        </>
      ))}
    </>
  );
}

/** "Paths: … · commit …" under a hit, or nothing for an entry without anchors. */
export function AnchorsLine({ entry: e }: { entry: Entry }) {
  if (!e.paths?.length && !e.commit) return null;
  return (
    <p class="anchors">
      <small>
        {e.paths?.length ? (
          <>
            {e.paths.length === 1 ? 'Path' : 'Paths'}: <PathLinks paths={e.paths} />
          </>
        ) : null}
        {e.paths?.length && e.commit ? ', ' : ''}
        {e.commit ? (
          <>
            commit <code>{e.commit}</code>
          </>
        ) : null}
      </small>
    </p>
  );
}

/**
 * "may be stale: <paths> have a newer <kind>: <its first words> — <agent>, <day>", or nothing while fresh;
 * `boxed`: set apart in a warning box (an entry's own page).
 */
export function StaleMark({ entry: e, boxed }: { entry: Entry; boxed?: boolean }) {
  const s = e.stale;
  if (!s) return null;
  return (
    <p class={boxed ? 'stale warn' : 'stale'}>
      <span class="badge warning">may be stale</span>
      <span class="visually-hidden">:</span>{' '}
      {s.paths.map((path, i) => (
        <>
          {i ? ', ' : ''}
          <code>{path}</code>
        </>
      ))}{' '}
      have a newer {e.kind}: <a href={`/dashboard/memory/${s.entry}`}>{s.says}</a> — <AgentName name={s.by} />,{' '}
      <time datetime={s.since}>{s.since.slice(0, 10)}</time>
    </p>
  );
}
