/** The isolation suite for the routes of the group `automation` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('automation');
