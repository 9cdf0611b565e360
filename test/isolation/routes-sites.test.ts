/** The isolation suite for the routes of the group `sites` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('sites');
