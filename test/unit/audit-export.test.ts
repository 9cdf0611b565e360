/** CSV fields of the audit export: RFC 4180 quoting, and no formula a spreadsheet would run. */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, exportFormatOf } from '../../shared/domain/audit/export.js';

describe('csvField', () => {
  it('quotes commas, quotes and line breaks so a CSV parser reads the value back', () => {
    const values = ['plain', 'a,b', 'say "hi"', 'two\nlines', '', '{"title":"x, y"}'];
    const line = values.map(csvField).join(',');
    expect(parse(line)).toEqual([values]);
  });

  it("prefixes what a spreadsheet would run as a formula with ', and writes objects as JSON", () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(null)).toBe('');
    expect(csvField({ title: { from: 'a', to: 'b' } })).toBe('"{""title"":{""from"":""a"",""to"":""b""}}"');
  });
});

describe('exportFormatOf', () => {
  it('answers CSV only when asked for', () => {
    expect(exportFormatOf('text/csv')).toBe('csv');
    expect(exportFormatOf('application/json, text/csv;q=0.5')).toBe('csv');
    expect(exportFormatOf('application/x-ndjson')).toBe('ndjson');
    expect(exportFormatOf(undefined)).toBe('ndjson');
  });
});
