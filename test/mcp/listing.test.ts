/**
 * The tools/list answer as built, without a server: within budget, every input property described,
 * and clean under the MCP Inspector's strict rules (test/e2e/listing.test.ts runs the Inspector
 * itself against every target). Prints the figures docs/design.md quotes.
 */
import { describe, expect, it } from 'vitest';
import { inputJsonSchema, outputJsonSchema, toolListing } from '../../src/mcp/listing';
import { TOOLS } from '../../src/mcp/tools/index';
import { LISTING_LIMIT, MODEL_READ_LIMIT, portabilityFindings, sizes, undescribed } from '../helpers/listing';

describe('the tools/list answer', () => {
  const { tools } = toolListing();

  it('stays within the budgets of what the model reads and of the whole listing', () => {
    const s = sizes({ tools });
    console.log(`tools/list: model-read ${s.modelRead}, output schemas ${s.outputSchemas}, whole ${s.whole} chars`);
    expect(s.modelRead).toBeLessThanOrEqual(MODEL_READ_LIMIT);
    expect(s.whole).toBeLessThanOrEqual(LISTING_LIMIT);
  });

  it.each(TOOLS.map((t) => t.name))('%s: every input property is described and every schema is portable', (name) => {
    const tool = tools.find((t) => t.name === name);
    expect(tool).toBeDefined();
    expect(undescribed(tool?.inputSchema ?? {})).toEqual([]);
    expect(portabilityFindings(tool?.inputSchema, 'inputSchema')).toEqual([]);
    expect(portabilityFindings(tool?.outputSchema, 'outputSchema')).toEqual([]);
  });

  it('publishes ids as uuid (an entry named by id or handle as a string), no text bounds and no descriptions in output schemas', () => {
    const json = JSON.stringify(tools);
    expect(json).not.toMatch(/"pattern"|"minLength"|"maxLength"|"propertyNames"|9007199254740991/);
    for (const t of tools) expect(JSON.stringify(t.outputSchema)).not.toContain('"description"');
    const input = (name: string) =>
      tools.find((t) => t.name === name)?.inputSchema as { properties: Record<string, { items?: object }> };
    expect(input('artifact_get').properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    // a handle is no uuid: a client checking formats would refuse it
    const refs = [
      input('forget').properties.id,
      input('forget').properties.ids?.items,
      input('decide').properties.supersedes,
      input('plan').properties.id,
      input('space').properties.entry_id,
    ];
    for (const ref of refs) {
      expect(ref).toMatchObject({ type: 'string' });
      expect(ref).not.toHaveProperty('format');
    }
  });

  it('writes a free-form object as {type: object} and a nullable as anyOf of single types', () => {
    const remember = TOOLS.find((t) => t.name === 'remember');
    const input = inputJsonSchema(remember?.input as never) as { properties: Record<string, object> };
    expect(input.properties.metadata).toEqual({ type: 'object', description: expect.any(String) });
    const output = outputJsonSchema(remember?.output as never) as { properties: Record<string, object> };
    expect(output.properties.project).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('writes a shape a result holds more than once under $defs, once', () => {
    const space = tools.find((t) => t.name === 'space')?.outputSchema as {
      properties: Record<string, { items?: object }>;
      $defs?: Record<string, object>;
    };
    expect(Object.keys(space.$defs ?? {})).toEqual(['event']);
    expect(space.properties.recent?.items).toEqual({ $ref: '#/$defs/event' });
    expect(space.properties.events?.items).toEqual({ $ref: '#/$defs/event' });
  });
});
