/** @jsxImportSource hono/jsx */
/**
 * Ledger (/dashboard/ledger): the org's events newest first as a timeline, a page at a time,
 * filtered by agent and operation, with the hash chain recomputed whole on each view; on the first
 * page, the activity per agent over the last 30 days as small multiples and a table.
 */
import { Hono } from 'hono';
import { verifyChain } from '../../domain/ledger';
import type { DashboardSession } from '../../domain/ports';
import type { LedgerEvent } from '../../domain/schemas';
import { ActivityChart, ActivityTable, type AgentSeries, agentSeries, lastDays } from '../activity';
import { Empty } from '../components';
import type { DashboardDeps, DashboardEnv } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';
import { type ChainState, Timeline } from '../timeline';

const LEDGER_PAGE = 50;
const ACTIVITY_DAYS = 30;

/** The ledger page's route. */
export function ledgerPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  app.get('/ledger', signedIn({ org: true }), async (c) => {
    const session = c.get('session');
    const orgId = session.org_id as string;
    const agent = (c.req.query('agent') ?? '').trim().normalize('NFC'); // as names are stored
    const op = (c.req.query('op') ?? '').trim();
    const before = Number(c.req.query('before'));
    const events = await store.dashboard.ledger(
      c.get('tokenHash'),
      { agent: agent || null, op: op || null, before: Number.isSafeInteger(before) && before > 0 ? before : null },
      LEDGER_PAGE,
    );
    // the session's org was checked by the ledger read above; the chain is recomputed whole
    const { chain_id } = await store.admin.exportOrg(orgId, false, 'dashboard');
    const verified = await verifyChain(chain_id, (after) => store.admin.ledgerPage(orgId, after, 1000));
    const first = !(Number.isSafeInteger(before) && before > 0);
    const days = lastDays(new Date().toISOString().slice(0, 10), ACTIVITY_DAYS);
    const activity = first
      ? agentSeries(await store.dashboard.activity(c.get('tokenHash'), ACTIVITY_DAYS), days)
      : null;
    const last = events.at(-1);
    return c.html(
      <Ledger
        nonce={c.get('nonce')}
        session={session}
        events={events}
        filter={{ agent, op }}
        verified={verified}
        activity={activity && { series: activity, days }}
        more={events.length === LEDGER_PAGE && last ? last.seq : null}
      />,
    );
  });
  return app;
}

function Ledger(p: {
  nonce: string;
  session: DashboardSession;
  events: LedgerEvent[];
  filter: { agent: string; op: string };
  verified: ChainState;
  activity: { series: AgentSeries[]; days: string[] } | null;
  more: number | null;
}) {
  const filtered = Boolean(p.filter.agent || p.filter.op);
  return (
    <Page title="Ledger" nonce={p.nonce} session={p.session} section="/dashboard/ledger">
      <p class={p.verified.ok ? 'notice' : 'error'} role="status">
        {p.verified.ok
          ? `Chain verified: all ${p.verified.events} events are intact.`
          : `Chain BROKEN at event ${p.verified.broken_at}: an event was altered or removed.`}
      </p>
      {p.activity?.series.length ? (
        <section aria-labelledby="activity">
          <h2 id="activity">Activity per agent, the last {p.activity.days.length} days</h2>
          <ActivityChart series={p.activity.series} days={p.activity.days} />
          <details>
            <summary>The numbers, per day</summary>
            <ActivityTable series={p.activity.series} days={p.activity.days} />
          </details>
        </section>
      ) : null}
      <h2>Events</h2>
      <form class="card filters" method="get" action="/dashboard/ledger">
        <p>
          <label for="agent">Agent</label>
          <input id="agent" name="agent" type="text" value={p.filter.agent} />
        </p>
        <p>
          <label for="op">Operation</label>
          <input id="op" name="op" type="text" value={p.filter.op} placeholder="e.g. remember, forget, key.revoke" />
        </p>
        <p class="actions">
          <button type="submit">Filter</button>
          {filtered ? (
            <a class="button secondary" href="/dashboard/ledger">
              Clear filters
            </a>
          ) : null}
        </p>
      </form>
      {p.events.length ? (
        <Timeline events={p.events} chain={p.verified} label="Events, newest first" />
      ) : filtered ? (
        <Empty title="No events match these filters.">
          <p>
            An operation is named as the ledger writes it (<code>remember</code>, <code>forget</code>,{' '}
            <code>key.create</code>…) and an agent by its exact name.
          </p>
        </Empty>
      ) : (
        <Empty title="The ledger is empty.">
          <p>
            Every write by an agent and every key created or revoked is recorded here, each event chained to the one
            before by its hash.
          </p>
        </Empty>
      )}
      {p.more === null ? null : (
        <p>
          <a href={`/dashboard/ledger?${new URLSearchParams({ ...p.filter, before: String(p.more) }).toString()}`}>
            Older events
          </a>
        </p>
      )}
    </Page>
  );
}
