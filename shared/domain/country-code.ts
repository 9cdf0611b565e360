/** A country code as sent by a client, checked and kept one way: ISO 3166-1 alpha-2, upper case. */
import { invalid, type Loc } from '../errors.js';
import { COUNTRY_CODES } from '../vocabulary/countries.js';

/** The code in upper case, or a 422 at `loc` (the United Kingdom is GB, not UK). */
export function countryCodeOf(sent: string, loc: Loc): string {
  const code = sent.trim().toUpperCase();
  if (!COUNTRY_CODES.has(code))
    throw invalid(
      loc,
      `must be an ISO 3166-1 alpha-2 country code${code === 'UK' ? ' (the United Kingdom is GB)' : ''}`,
      'country',
    );
  return code;
}
