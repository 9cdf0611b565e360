/** The isolation suite for the routes of the group `infrastructure` (test/isolation/groups.ts, suite.ts). */
import { isolationSuite } from './suite.js';

isolationSuite('infrastructure');
