/** Fuzzing (fuzz.ts) of the routes of these groups (test/support/route-groups.ts); fuzz-1.test.ts has the others. */
import { fuzzSuite } from './fuzz.js';

fuzzSuite(['events', 'infrastructure', 'sites']);
