/**
 * The Node fetcher of client metadata documents: the host name is resolved first and every address
 * it has must be public; the connection is then made to the address checked (no second lookup a
 * rebinding DNS server could answer differently), over TLS verified for the host name. No
 * redirects; at most METADATA_LIMITS.bytes in METADATA_LIMITS.timeoutMs.
 */
import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { isPublicAddress } from './addresses';
import { METADATA_LIMITS, type MetadataFetch, maxAgeOf, readDocument } from './clients';

export const nodeMetadataFetch: MetadataFetch = async (url) => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const signal = AbortSignal.timeout(METADATA_LIMITS.timeoutMs);
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => {
    throw new Error(`the client metadata host ${host} does not resolve`);
  });
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (!addresses.length || refused) {
    throw new Error('the client metadata host resolves to a private, loopback or link-local address');
  }
  const chosen = addresses[0] as { address: string; family: number };
  const pinned: LookupFunction = (_name, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [chosen]);
    else callback(null, chosen.address, chosen.family);
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'application/json' }, lookup: pinned, signal }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`the client metadata document answered HTTP ${res.statusCode} (redirects are not followed)`));
        return;
      }
      readDocument(Readable.toWeb(res) as ReadableStream<Uint8Array>).then(
        (body) => resolve({ body, maxAge: maxAgeOf(res.headers['cache-control'] ?? null) }),
        reject,
      );
    });
    req.on('error', (err) =>
      reject(signal.aborted ? new Error('the client metadata document took too long') : new Error(err.message)),
    );
    req.end();
  });
};
