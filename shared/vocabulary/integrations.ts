/** What an integration the caller may not see (unknown, or another tenant's) is answered with. */
export const INTEGRATION_NOT_FOUND = 'Integration not found';
