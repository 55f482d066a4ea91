import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameText } from '../../src/domain/agents';

describe('agent names in texts', () => {
  it('shows a plain name bare and any other quoted, so no name passes for the words around it', () => {
    for (const plain of ['alice', 'ci-bot', 'ana@acme.com', 'claude-code/session:2', 'Zoë_2']) {
      expect(nameText(plain)).toBe(plain);
    }
    expect(nameText('boss@acme.com (member)')).toBe('"boss@acme.com (member)"');
    expect(nameText('alice (verified)')).toBe('"alice (verified)"');
    expect(nameText('"alice"')).toBe('"\\"alice\\""');
  });

  it('reads back as the name: a shown name is one word, or a JSON string of the name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), (name) => {
        const shown = nameText(name);
        if (shown === name) expect(shown).not.toMatch(/[\s()"[\],;]/);
        else expect(JSON.parse(shown)).toBe(name);
      }),
    );
  });
});
