/** @jsxImportSource hono/jsx */
/**
 * Usage (/dashboard/usage): the org's plan, this month's use against its quotas, and the use per
 * day; for owners, the org's export (src/operator/portable.ts), with the agents' private notes only when
 * the owner ticks the box (the ledger records that choice, by the owner's email).
 */
import { Hono } from 'hono';
import { Forbidden } from '../../domain/errors';
import type { Usage as UsageData } from '../../domain/limits';
import type { DashboardSession } from '../../domain/ports';
import { exportLines, ndjson } from '../../operator/portable';
import { chartDays, UsageChart } from '../chart';
import { DataTable, Empty, when } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

const USAGE_DAYS = 30;

/** The usage page's route. */
export function usagePage({ store, blobs }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  app.get('/usage', signedIn({ org: true }), async (c) => {
    const usage = await store.dashboard.usage(c.get('tokenHash'), USAGE_DAYS);
    const today = new Date().toISOString().slice(0, 10);
    return c.html(
      <Usage nonce={c.get('nonce')} session={c.get('session')} usage={usage} days={USAGE_DAYS} today={today} />,
    );
  });
  app.post('/usage/export', signedIn({ org: true }), async (c) => {
    const session = c.get('session');
    if (!isOwner(session)) throw new Forbidden('Only an owner of the org exports it.');
    const withPrivate = (await formOf(c))('private') === 'on';
    const orgId = session.org_id as string;
    const tokenHash = c.get('tokenHash');
    const lines = exportLines(store, blobs, orgId, {
      withPrivate,
      begin: (p) => store.dashboard.exportOrg(tokenHash, p),
    });
    return ndjson(lines, `cairn-${orgId}-${new Date().toISOString().slice(0, 10)}.ndjson`);
  });
  return app;
}

const isOwner = (s: DashboardSession) => s.orgs.find((o) => o.id === s.org_id)?.role === 'owner';

const number = new Intl.NumberFormat('en');

function bytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${number.format(n)} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

/** "used of limit (n %)" with a meter, or just "used" when nothing limits it. */
function Against(p: { used: number; limit: number | null; label: string; format: (n: number) => string }) {
  if (p.limit === null) return <>{p.format(p.used)} (no limit)</>;
  const share = p.limit === 0 ? 100 : Math.round((100 * p.used) / p.limit);
  return (
    <>
      {p.format(p.used)} of {p.format(p.limit)} ({share} %){' '}
      <meter aria-label={p.label} min={0} max={p.limit} value={Math.min(p.used, p.limit)} high={p.limit * 0.8}>
        {share} %
      </meter>
    </>
  );
}

/** The org's plan, its use this month against the quotas, and its use per day. */
function Usage(p: { nonce: string; session: DashboardSession; usage: UsageData; days: number; today: string }) {
  const u = p.usage;
  const limitOr = (n: number | null, f: (n: number) => string) => (n === null ? 'no limit' : f(n));
  // calls of the month so far at the end of each day, for the quota column
  const rows = [...(u.days ?? [])].reverse();
  let month = '';
  let sum = 0;
  const withTotals = rows
    .map((d) => {
      if (d.day.slice(0, 7) !== month) {
        month = d.day.slice(0, 7);
        sum = 0;
      }
      sum += d.calls;
      return { ...d, monthToDate: sum };
    })
    .reverse();
  return (
    <Page title="Usage" nonce={p.nonce} session={p.session} section="/dashboard/usage">
      <p class="lead">
        {u.plan === null
          ? 'This org has no plan: nothing is limited beyond the installation’s own payload limits.'
          : `Plan: ${u.plan}.`}
      </p>
      <dl class="facts card">
        <dt>Tool calls this month</dt>
        <dd>
          <Against
            used={u.tool_calls_this_month}
            limit={u.tool_calls_per_month}
            label="Tool calls this month against the quota"
            format={(n) => number.format(n)}
          />
          ; the count starts again at {when(u.resets_at)} UTC.
        </dd>
        <dt>Stored (entry content and artifacts)</dt>
        <dd>
          <Against
            used={u.stored_bytes}
            limit={u.stored_bytes_limit}
            label="Stored bytes against the quota"
            format={bytes}
          />
        </dd>
        <dt>Requests per minute, per API key</dt>
        <dd>{limitOr(u.requests_per_minute, (n) => number.format(n))}</dd>
        <dt>Largest artifact</dt>
        <dd>{limitOr(u.artifact_bytes, bytes)}</dd>
        <dt>Longest entry</dt>
        <dd>{limitOr(u.entry_chars, (n) => `${number.format(n)} characters`)}</dd>
      </dl>
      <h2>Per day</h2>
      {withTotals.length === 0 ? (
        <Empty title={`No tool calls in the last ${p.days} days.`}>
          <p>
            Calls made with this org’s <a href="/dashboard/settings/keys">API keys</a> are counted here by UTC day.
          </p>
        </Empty>
      ) : (
        <>
          <UsageChart
            days={chartDays(new Map(withTotals.map((d) => [d.day, d.calls])), p.today, p.days)}
            quota={u.tool_calls_per_month}
          />
          <DataTable
            caption={`Per day (UTC), the last ${p.days} days with tool calls, newest first`}
            rows={withTotals}
            columns={[
              { label: 'Day', cell: (d) => d.day },
              { label: 'Tool calls', cell: (d) => number.format(d.calls) },
              {
                label: 'Month to date',
                cell: (d) =>
                  u.tool_calls_per_month === null
                    ? number.format(d.monthToDate)
                    : `${number.format(d.monthToDate)} of ${number.format(u.tool_calls_per_month)}`,
              },
              {
                label: 'Stored at the day’s last call',
                cell: (d) =>
                  u.stored_bytes_limit === null
                    ? bytes(d.stored_bytes)
                    : `${bytes(d.stored_bytes)} of ${bytes(u.stored_bytes_limit)}`,
              },
            ]}
          />
        </>
      )}
      {isOwner(p.session) ? (
        <>
          <h2>Take the memory with you</h2>
          <form class="card" method="post" action="/dashboard/usage/export">
            <input type="hidden" name="_csrf" value={p.session.csrf} />
            <p>
              The whole org as one file (NDJSON): every entry with its versions, artifacts with their bytes, projects
              and the ledger with its hashes. <code>cairn ledger verify --file</code> checks it offline and{' '}
              <code>cairn import</code> loads it into another install.
            </p>
            <p>
              <input id="private" name="private" type="checkbox" />{' '}
              <label for="private">
                Include the agents’ private notes (the ledger records that you chose to; without it their events are
                sealed: linked, but empty)
              </label>
            </p>
            <p class="actions">
              <button type="submit">Download the export</button>
            </p>
          </form>
        </>
      ) : null}
    </Page>
  );
}
