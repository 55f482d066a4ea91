/**
 * Times from the database become UTC ISO strings with milliseconds. A time Postgres wrote in UTC is
 * rewritten as text, without a `Date`: the text must be exactly what the `Date` would have given,
 * for every fraction Postgres writes (none, or 1 to 6 digits, trailing zeros dropped).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime, withIsoTimes } from '../../src/domain/types';

/** A time as Postgres writes a timestamptz in JSON in a UTC session: microseconds, zeros dropped. */
function postgresUtc(ms: number, micros: number): string {
  const base = new Date(ms).toISOString().slice(0, 19);
  const fraction = String((((ms % 1000) + 1000) % 1000) * 1000 + micros)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}+00:00`;
}

describe('isoTime', () => {
  it('gives what Date gives for every UTC time Postgres writes', () => {
    const years = fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) });
    fc.assert(
      fc.property(years, fc.integer({ min: 0, max: 999 }), (ms, micros) => {
        const text = postgresUtc(ms, micros);
        expect(isoTime(text)).toBe(new Date(text).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('parses times in other zones and forms as Date does', () => {
    for (const text of [
      '2026-11-25T22:53:05.465+01:00',
      '2026-11-25T23:53:05.4659-05:30',
      '2026-11-25 22:53:05.465+00',
      '2026-11-25T22:53:05Z',
    ]) {
      expect(isoTime(text)).toBe(new Date(text).toISOString());
    }
    expect(isoTime('2026-11-25T22:53:05+00:00')).toBe('2026-11-25T22:53:05.000Z');
    expect(isoTime('2026-11-25T22:53:05.4+00:00')).toBe('2026-11-25T22:53:05.400Z');
    expect(isoTime('2026-11-25T22:53:05.999999+00:00')).toBe('2026-11-25T22:53:05.999Z');
  });

  it('normalises only the time fields of a row', () => {
    const row = { id: 'x', created_at: '2026-01-02T03:04:05.123456+00:00', expires_at: null, note: '2026' };
    expect(withIsoTimes(row)).toEqual({
      id: 'x',
      created_at: '2026-01-02T03:04:05.123Z',
      expires_at: null,
      note: '2026',
    });
  });
});
