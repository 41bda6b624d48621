import { describe, expect, it } from 'vitest';
import { fill, renderTemplate, variableCount, variablesAreContiguous, variablesOf } from './template-text.ts';

describe('template variables', () => {
  it('finds {{n}} variables in order of first appearance, spaces inside the braces allowed', () => {
    expect(variablesOf('Hi {{2}}, {{ 1 }} and {{2}} again; {{x}} and {1} are text')).toEqual([2, 1]);
  });

  it('counts the variables of header and body, not of the footer', () => {
    expect(variableCount([{ type: 'header', text: '{{1}}' }, { type: 'body', text: '{{2}} {{3}}' }, { type: 'footer', text: '{{9}}' }])).toBe(3);
    expect(variableCount([{ type: 'body', text: 'no variables' }])).toBe(0);
  });

  it('accepts 1…n without gaps only', () => {
    expect(variablesAreContiguous([])).toBe(true);
    expect(variablesAreContiguous([2, 1, 2, 3])).toBe(true);
    expect(variablesAreContiguous([1, 3])).toBe(false);
    expect(variablesAreContiguous([0, 1])).toBe(false);
  });

  it('fills values literally, even ones that look like replacement patterns', () => {
    expect(fill('{{1}} costs {{2}}', ['Tea', '$& 5'])).toBe('Tea costs $& 5');
  });

  it('renders header, body and footer a blank line apart, in that order whatever the component order', () => {
    expect(renderTemplate([{ type: 'footer', text: 'F' }, { type: 'body', text: 'B {{1}}' }, { type: 'header', text: 'H' }], ['x'])).toBe('H\n\nB x\n\nF');
    expect(renderTemplate([{ type: 'body', text: 'Only {{1}}' }], ['body'])).toBe('Only body');
  });
});
