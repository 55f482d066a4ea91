import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentName, mixedScripts, nameText } from '../../src/domain/agents';
import { Invalid } from '../../src/domain/errors';
import { headerText } from '../../src/http/caller';

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
        const marked = nameText(name);
        const mixed = mixedScripts(name);
        const mark = mixed ? ` (mixed scripts: ${mixed.join('+')})` : '';
        expect(marked.endsWith(mark)).toBe(true);
        const shown = marked.slice(0, marked.length - mark.length);
        if (shown === name) expect(shown).not.toMatch(/[\s()"[\],;]/);
        else expect(JSON.parse(shown)).toBe(name);
      }),
    );
  });
});

describe('agent names as given', () => {
  const refusal = (raw: string) => {
    try {
      agentName(raw, 'X-Svc-Agent');
    } catch (err) {
      expect(err).toBeInstanceOf(Invalid);
      return (err as Invalid).message;
    }
    return null;
  };

  it('NFC-normalises and trims; blank is none', () => {
    expect(agentName('  jose\u0301 ', 'agent')).toBe('jos\u00e9');
    expect(agentName('jos\u00e9', 'agent')).toBe('jos\u00e9');
    expect(agentName(' \t', 'agent')).toBeNull();
    expect(agentName(undefined, 'agent')).toBeNull();
    expect(agentName('Zoë_2', 'agent')).toBe('Zoë_2');
  });

  it('refuses control, format and separator characters, saying which, where, and what to do', () => {
    expect(refusal('rev\u00adiewer')).toBe(
      'X-Svc-Agent: must not contain control or invisible characters; found U+00AD (soft hyphen, an invisible format character) at character 4: remove it and send the name as it reads',
    );
    expect(refusal('a\u200bb')).toContain('U+200B (zero width space, an invisible format character) at character 2');
    expect(refusal('\u202eabc')).toContain(
      'U+202E (right-to-left override, an invisible format character) at character 1',
    );
    expect(refusal('\ufeffabc')).toContain('U+FEFF (zero width no-break space (byte order mark)');
    expect(refusal('abc\u2028')).toContain('U+2028 (a line separator)');
    expect(refusal('a\u2029b')).toContain('U+2029 (a paragraph separator)');
    expect(refusal('a\u0007b')).toContain('U+0007 (a control character) at character 2');
    expect(refusal('a\u0085b')).toContain('U+0085 (a control character)');
    expect(refusal('\u{1F600}\u2066x')).toContain('at character 2'); // counted in characters, not code units
    expect(refusal('a\ufffdb')).toContain(
      'U+FFFD (the replacement character: the name was not sent as UTF-8) at character 2',
    );
    expect(refusal('a\ud800')).toContain('well-formed');
    expect(refusal('a'.repeat(129))).toContain('at most 128');
  });

  it('reads a header as UTF-8 when its bytes are UTF-8, else as Latin-1', () => {
    const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
    expect(headerText(bytes('jos\u00e9'))).toBe('jos\u00e9');
    expect(headerText(bytes('エージェント'))).toBe('エージェント');
    expect(headerText('jos\u00e9')).toBe('jos\u00e9'); // one byte 0xE9: not UTF-8
    expect(headerText(bytes('\ufeffx'))).toBe('\ufeffx'); // a byte order mark is kept, to be refused
    expect(headerText('plain')).toBe('plain');
  });
});

describe('names that mix scripts', () => {
  it('finds Latin with Cyrillic or Greek look-alikes, and any two scripts', () => {
    expect(mixedScripts('\u0430gent-b')).toEqual(['Cyrillic', 'Latin']);
    expect(mixedScripts('\u0440\u0430ypal')).toEqual(['Cyrillic', 'Latin']);
    expect(mixedScripts('\u03bfpen-ai')).toEqual(['Greek', 'Latin']);
    expect(mixedScripts('bot-\u05d0')).toEqual(['Hebrew', 'Latin']);
    expect(mixedScripts('agent\u0663')).toEqual(['Arabic', 'Latin']); // an Arabic-Indic digit
  });

  it('lets one script pass, with Common and Inherited characters and the writing systems that combine scripts', () => {
    for (const name of [
      'agent-b',
      'ci_bot.2',
      'Zoë-2',
      'jose\u0301', // a combining accent is Inherited
      'агент-7', // Cyrillic alone
      'δέλτα-7',
      'エージェント漢字', // Katakana with Han: Japanese
      'ひらがな-カタカナ',
      '에이전트漢', // Hangul with Han: Korean
      'ㄅㄆ漢', // Bopomofo with Han
      '٣-٤', // Arabic digits alone
    ]) {
      expect(mixedScripts(name), name).toBeNull();
    }
    expect(mixedScripts('カタ에이')).toEqual(['Hangul', 'Katakana']); // Japanese with Korean
  });

  it('marks such a name in texts, after the name as a text shows it', () => {
    expect(nameText('\u0430gent-b')).toBe('\u0430gent-b (mixed scripts: Cyrillic+Latin)');
    expect(nameText('\u0430gent b')).toBe('"\u0430gent b" (mixed scripts: Cyrillic+Latin)');
    expect(nameText('agent-b')).toBe('agent-b');
  });
});
