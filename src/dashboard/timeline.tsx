/** @jsxImportSource hono/jsx */
/**
 * The ledger as a vertical timeline, newest first: each event's time, sequence number, agent,
 * operation, the entry it concerns and the reason given; a badge naming who acted when it was not
 * an agent (a member in the dashboard, an operator), one when the agent came from the credential
 * (`verified`), and, when the chain does not verify, the event where it breaks and those after it
 * marked as such (in words, not by colour alone).
 */
import type { LedgerEvent } from '../domain/schemas';
import { AgentName } from './agent-name';
import { when } from './components';

/** The chain's state as recomputed for the page (src/domain/ledger.ts verifyChain). */
export interface ChainState {
  ok: boolean;
  events: number;
  broken_at: number | null;
}

/** One event's place against the chain: intact, where it breaks, or after the break. */
function standing(seq: number, chain: ChainState): 'ok' | 'breaks' | 'after' {
  if (chain.ok || chain.broken_at === null || seq < chain.broken_at) return 'ok';
  return seq === chain.broken_at ? 'breaks' : 'after';
}

/** What the kind badge says of an actor that is not an agent. */
const ACTOR_TITLES = {
  member: 'a member of the org, acting in the dashboard',
  operator: "the install's operator: the command line or the admin API",
} as const;

/** Operations whose `entry_id` names an entry that may still be shown (a forgotten one is gone). */
const ENTRY_OPS = /^(remember|observe|decide|note|plan\.)/;

/** What the event is about: a link to its entry, or the id of the key, artifact or forgotten entry. */
function Subject({ event: e }: { event: LedgerEvent }) {
  if (!e.entry_id) return null;
  const id = <code>{e.entry_id.slice(0, 8)}…</code>;
  if (ENTRY_OPS.test(e.op)) {
    return (
      <>
        {' '}
        <a href={`/dashboard/memory/${e.entry_id}`}>entry {id}</a>
      </>
    );
  }
  const what = e.op.startsWith('key.') ? 'key' : e.op.startsWith('artifact') ? 'artifact' : 'entry';
  return (
    <span class="muted">
      {' '}
      {what} {id}
    </span>
  );
}

/** The events (newest first) as a timeline, captioned by `label`. */
export function Timeline(p: { events: LedgerEvent[]; chain: ChainState; label: string }) {
  return (
    <ol class="timeline plain" aria-label={p.label}>
      {p.events.map((e) => {
        const place = standing(e.seq, p.chain);
        return (
          <li class={place === 'ok' ? 'event' : 'event broken'}>
            <p class="when">
              <time datetime={e.at}>{when(e.at)} UTC</time> <span class="muted">#{e.seq}</span>
            </p>
            <p>
              <AgentName name={e.agent} strong />{' '}
              {e.actor_kind === 'member' || e.actor_kind === 'operator' ? (
                <>
                  <span class="badge" title={ACTOR_TITLES[e.actor_kind]}>
                    {e.actor_kind}
                  </span>{' '}
                </>
              ) : null}
              {e.verified ? (
                <>
                  <span class="badge ok" title="the agent came from the credential, not from a header">
                    verified agent
                  </span>{' '}
                </>
              ) : null}
              <span class="badge accent">{e.op}</span>
              <Subject event={e} />
            </p>
            {e.reason ? <p class="muted">Reason: {e.reason}</p> : null}
            {place === 'breaks' ? (
              <p class="error">The chain breaks here: this event was altered, or one before it removed</p>
            ) : place === 'after' ? (
              <p class="error">After the break: not covered by a verified chain</p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
