/** What a threat library the caller may not see (unknown, or another tenant's) is answered with. */
export const THREAT_LIBRARY_NOT_FOUND = 'Threat library not found';
