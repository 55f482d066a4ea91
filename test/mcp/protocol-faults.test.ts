/** Reading the SDK's refusals of malformed requests, and what the caller is told. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, envelopeFault, issuesIn } from '../../src/mcp/protocol-faults';

describe('protocol faults', () => {
  it("reads zod's serialised issues, and nothing else, as a refusal", () => {
    const schema = z.object({
      params: z.object({ capabilities: z.object({}), clientInfo: z.object({ name: z.string() }) }),
    });
    const error = schema.safeParse({ params: { capabilities: null, clientInfo: {} } }).error as z.ZodError;
    const issues = issuesIn(error.message);
    expect(issues).toHaveLength(2);
    expect(describeIssues('initialize', issues ?? [])).toBe(
      'initialize: params.capabilities must be an object, not null; params.clientInfo.name is required (a string)',
    );
    for (const other of ['internal error', '[1, 2]', '[]', '[{"path": "x", "message": "y"}]', '[not json']) {
      expect(issuesIn(other), other).toBeUndefined();
    }
  });

  it('names a method only when it reads as one', () => {
    expect(envelopeFault({ jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' })?.message).toBe(
      'ping: params must be an object, not string',
    );
    expect(envelopeFault({ jsonrpc: '2.0', id: 1, method: 'x\r\ny', params: null })?.message).toBe(
      'request: params must be an object, not null',
    );
    // a notification (no id) is not answered; an object of params is the SDK's to check
    expect(envelopeFault({ jsonrpc: '2.0', method: 'ping', params: 5 })).toBeUndefined();
    expect(envelopeFault({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: {} } })).toBeUndefined();
  });
});
