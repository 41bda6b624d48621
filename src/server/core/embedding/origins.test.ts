import { describe, expect, it } from 'vitest';
import { frameAncestors, normalizeOrigin } from './origins.ts';

describe('allowed origins', () => {
  it.each([
    ['https://crm.example.com', 'https://crm.example.com'],
    ['https://CRM.Example.com/', 'https://crm.example.com'],
    ['https://crm.example.com:443', 'https://crm.example.com'],
    ['https://crm.example.com:8443', 'https://crm.example.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://xn--e1afmkfd.xn--p1ai', 'https://xn--e1afmkfd.xn--p1ai'],
  ])('accepts %s as %s', (input, origin) => {
    expect(normalizeOrigin(input)).toEqual({ origin });
  });

  it.each([
    'http://crm.example.com',
    'https://*.example.com',
    'https://crm.example.com/app',
    'https://crm.example.com?x=1',
    'https://crm.example.com#top',
    'https://user:pw@crm.example.com',
    'ftp://crm.example.com',
    'crm.example.com',
    "'self'",
  ])('refuses %s', (input) => {
    expect(normalizeOrigin(input)).toHaveProperty('problem');
  });

  it('lists the origins in frame-ancestors, and none as none', () => {
    expect(frameAncestors(['https://a.example', 'https://b.example:8443'])).toBe('frame-ancestors https://a.example https://b.example:8443');
    expect(frameAncestors([])).toBe("frame-ancestors 'none'");
  });
});
