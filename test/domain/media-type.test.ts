/** Media types as RFC 9110 writes them; nothing that could break a header or a line of text. */
import { describe, expect, it } from 'vitest';
import { isMediaType, servableMediaType } from '../../src/domain/media-type';

describe('isMediaType', () => {
  it.each([
    'text/markdown',
    'application/octet-stream',
    'application/vnd.api+json',
    'text/plain; charset=utf-8',
    'text/plain;charset=UTF-8;format=flowed',
    'text/plain ; charset=utf-8 ;',
    'multipart/form-data; boundary="a b;c=d"',
    'text/plain; title="say \\"hi\\""',
    "application/x-!#$%&'*+.^_`|~-1",
  ])('accepts %j', (s) => {
    expect(isMediaType(s)).toBe(true);
  });

  it.each([
    '',
    'text',
    'text/',
    '/plain',
    'text/plain/extra',
    'text /plain',
    'text/pla in',
    'text/plain; charset',
    'text/plain; charset=',
    'text/plain; =utf-8',
    'text/plain; charset="unterminated',
    'text/plain; charset="a"b',
    'text/plain\r\nX-Injected: 1',
    'text/plain\n',
    'text/plain;\rcharset=utf-8',
    'text/plain\u2028',
    'text/plain; charset="a\u2029"',
    'text/plain\u0000',
    'text/plain\tx',
    'text/plain; charset=utf\u00e9',
    'tëxt/plain',
    `text/${'x'.repeat(251)}`,
  ])('refuses %j', (s) => {
    expect(isMediaType(s)).toBe(false);
  });

  it('checks a long value in time, and holds to 255 characters', () => {
    expect(isMediaType(`text/${'x'.repeat(250)}`)).toBe(true);
    const started = performance.now();
    expect(isMediaType(`text/plain; a="${'b'.repeat(5_000_000)}"`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('serves a stored type that is not one as bytes', () => {
    expect(servableMediaType('text/markdown')).toBe('text/markdown');
    expect(servableMediaType('text/html\r\nSet-Cookie: x=1')).toBe('application/octet-stream');
  });
});
