/** @jsxImportSource hono/jsx */
/**
 * An entry's versions along its supersession chain, oldest first, and what changed from each to
 * the next as a word diff: removed words struck through inside <del>, inserted ones underlined
 * inside <ins>, each also said in words for screen readers (not by colour alone).
 */
import type { EntryPage } from '../domain/ports';
import { AgentName } from './agent-name';
import { when } from './components';
import { diffWords } from './diff';

type Version = EntryPage['versions'][number];

/** The diff of two versions' content, as marked-up text. */
export function Diff(p: { before: string; after: string }) {
  return (
    <p class="diff">
      {diffWords(p.before, p.after).map((part) =>
        part.op === 'same' ? (
          part.text
        ) : part.op === 'del' ? (
          <del>
            <span class="visually-hidden">[removed: </span>
            {part.text}
            <span class="visually-hidden">]</span>
          </del>
        ) : (
          <ins>
            <span class="visually-hidden">[inserted: </span>
            {part.text}
            <span class="visually-hidden">]</span>
          </ins>
        ),
      )}
    </p>
  );
}

/** The list of versions, then the changes between consecutive ones when there are several. */
export function Versions(p: { versions: Version[] }) {
  // numbered by their place along the chain (an entry's own `version` counts its updates in place)
  const numbered = p.versions.map((v, i) => ({ ...v, place: i + 1 }));
  const pairs = numbered.slice(1).map((v, i) => [numbered[i] as Version & { place: number }, v] as const);
  return (
    <>
      <h2>Versions</h2>
      <ol>
        {numbered.map((v) =>
          v.current ? (
            <li>
              <strong>
                version {v.place} (this one), {when(v.created_at)} by <AgentName name={v.agent} />
              </strong>
            </li>
          ) : v.kept ? (
            <li>
              version {v.place}, {when(v.created_at)} by <AgentName name={v.agent} />
            </li>
          ) : (
            <li>
              <a href={`/dashboard/memory/${v.id}`}>version {v.place}</a>, {when(v.created_at)} by{' '}
              <AgentName name={v.agent} />
            </li>
          ),
        )}
      </ol>
      {pairs.length ? (
        <>
          <h3>What changed</h3>
          <p class="muted">
            From each version to the next: words removed are <del>struck through</del>, words inserted are{' '}
            <ins>underlined</ins>.
          </p>
          <ol class="plain changes">
            {pairs.map(([a, b]) => (
              <li class="card">
                <p class="muted">
                  Version {a.place} → version {b.place}, {when(b.created_at)} UTC by <AgentName name={b.agent} />
                </p>
                <Diff before={a.content} after={b.content} />
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </>
  );
}
