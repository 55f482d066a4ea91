/** A request's whole body as UTF-8 text: what the local stand-ins for outside services read. */
import type { IncomingMessage } from 'node:http';

export async function requestText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
