/** @jsxImportSource hono/jsx */
/**
 * Artifacts (/dashboard/artifacts): the org's shared artifacts, newest first, each a download —
 * always an attachment, so stored HTML or SVG is never rendered on the dashboard's origin.
 */
import { Hono } from 'hono';
import { NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import { servableMediaType } from '../../domain/media-type';
import type { DashboardSession } from '../../domain/ports';
import type { Artifact } from '../../domain/schemas';
import { AgentName } from '../agent-name';
import { DataTable, Empty, when } from '../components';
import type { DashboardDeps, DashboardEnv } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

/** The artifacts page's routes. */
export function artifactsPage({ store, blobs }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  app.get('/artifacts', signedIn(), async (c) => {
    const artifacts = await store.dashboard.artifacts(c.get('tokenHash'), 200);
    return c.html(<Artifacts nonce={c.get('nonce')} session={c.get('session')} artifacts={artifacts} />);
  });

  /** The bytes, always as a download (never rendered on the dashboard's origin). */
  app.get('/artifacts/:id', signedIn(), async (c) => {
    const id = c.req.param('id');
    const found = UUID_RE.test(id) ? await store.dashboard.artifact(c.get('tokenHash'), id) : null;
    if (!found) throw new NotFound('no such artifact in this org');
    const bytes = await blobs.get(found.blob_key);
    if (!bytes) throw new NotFound(`the bytes of artifact ${id} are missing from storage`);
    const name = found.artifact.name.split('/').pop() || 'artifact';
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      // a row an older release stored with a type that is not one (a line break in it) is served as bytes
      'content-type': servableMediaType(found.artifact.content_type),
      'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    });
  });
  return app;
}

function Artifacts(p: { nonce: string; session: DashboardSession; artifacts: Artifact[] }) {
  return (
    <Page title="Artifacts" nonce={p.nonce} session={p.session} section="/dashboard/artifacts">
      {p.artifacts.length === 0 ? (
        <Empty title="No shared artifacts yet.">
          <p>
            Agents store files, reports and runbooks with the <code>artifact_put</code> tool; the ones shared with the
            org are listed here to download.
          </p>
        </Empty>
      ) : (
        <DataTable
          caption="Shared artifacts, newest first"
          rows={p.artifacts}
          columns={[
            {
              label: 'Name',
              cell: (a) => (
                <a href={`/dashboard/artifacts/${a.id}`} download={a.name}>
                  {a.name}
                </a>
              ),
            },
            { label: 'Version', cell: (a) => a.version },
            { label: 'Type', cell: (a) => a.content_type },
            { label: 'Size', cell: (a) => `${a.size.toLocaleString('en')} bytes` },
            { label: 'By', cell: (a) => <AgentName name={a.agent} /> },
            { label: 'When', cell: (a) => when(a.created_at) },
          ]}
        />
      )}
    </Page>
  );
}
