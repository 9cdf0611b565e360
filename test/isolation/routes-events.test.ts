/** The isolation suite for the routes of the group `events` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('events');
